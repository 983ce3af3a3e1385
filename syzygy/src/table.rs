//! One table file, WDL or DTZ: the header read once when the table is first probed (which
//! men in which order, how each file section is compressed, where its tables lie), then
//! probes of positions with the table's men.
//!
//! Layout: 4 magic bytes; a flags byte (bit 0: both sides to move stored, bit 1: sections
//! per pawn file); for each section (one pawnless, four with pawns: the leading pawn's file
//! a-d), the order of the men for each side to move (low nibble: White to move, high: Black)
//! as piece codes (1 pawn ... 6 king, +8 for Black); the sections' decoder headers; for DTZ
//! the maps from stored to actual distances; then each section's index tables, size tables
//! and 64-byte-aligned data.

use crate::bytes::{u16_le, u8_at};
use crate::encoding::{binomial, encode_pawns, encode_pieces, pawn_file, Leading, MAX_MEN, PAWN_FACTOR};
use crate::error::{FormatError, FormatResult, TableKind};
use crate::mapping::Bytes;
use crate::material::Material;
use crate::pairs::{Header, Pairs, Sizes};
use tempo_core::{Color, Position, Role};

const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Which men a table holds, from its name, and how its index is organised.
#[derive(Clone, Copy, Debug)]
struct Shape {
    men: usize,
    /// Pawnless tables: the leading group.
    leading: Leading,
    /// Tables with pawns: the leading pawns (the side with fewer, but some) and the others.
    pawns: [usize; 2],
    symmetric: bool,
}

impl Shape {
    fn of(material: Material) -> Shape {
        let white = material.count(Color::White, Role::Pawn) as usize;
        let black = material.count(Color::Black, Role::Pawn) as usize;
        let pawns = if white > 0 && (black == 0 || white < black) { [white, black] } else { [black, white] };
        let unique = Color::ALL
            .iter()
            .flat_map(|&c| Role::ALL.iter().map(move |&r| material.count(c, r)))
            .filter(|&n| n == 1)
            .count();
        Shape {
            men: material.men() as usize,
            leading: if unique >= 3 { Leading::Three } else { Leading::Kings },
            pawns,
            symmetric: material.is_symmetric(),
        }
    }

    fn has_pawns(&self) -> bool {
        self.pawns[0] > 0
    }
}

/// The men of one section for one side to move, in index order, with the sizes of their
/// groups and each group's multiplier.
#[derive(Clone, Copy, Debug, Default)]
struct Order {
    pieces: [u8; MAX_MEN],
    norm: [u8; MAX_MEN],
    factor: [u64; MAX_MEN],
}

impl Order {
    /// Reads the men (`nibble` 0: low, 1: high) and computes the group multipliers; returns
    /// the order and the number of indices of the section.
    fn read(data: &[u8], at: usize, shape: &Shape, nibble: u32, file: usize) -> FormatResult<(Order, u64)> {
        let nib = |b: u8| (b >> (4 * nibble)) & 0x0f;
        let pawn_table = shape.has_pawns();
        let skip = if pawn_table && shape.pawns[1] > 0 { 2 } else { 1 };
        let mut order = Order::default();
        for i in 0..shape.men {
            let code = nib(u8_at(data, at + skip + i)?);
            if !(1..=6).contains(&(code & 7)) {
                return Err(FormatError::new(format!("piece code {code} in the header")));
            }
            order.pieces[i] = code;
        }
        let first = u32::from(nib(u8_at(data, at)?));
        let second = if pawn_table && shape.pawns[1] > 0 { u32::from(nib(u8_at(data, at + 1)?)) } else { 0x0f };

        // Groups: the leading men, (with pawns) the second pawn group, then runs of like men.
        let n = shape.men;
        let mut i = if pawn_table {
            order.norm[0] = shape.pawns[0] as u8;
            if shape.pawns[1] > 0 {
                order.norm[shape.pawns[0]] = shape.pawns[1] as u8;
            }
            shape.pawns[0] + shape.pawns[1]
        } else {
            order.norm[0] = shape.leading.len() as u8;
            shape.leading.len()
        };
        while i < n {
            let run = order.pieces[i..n].iter().take_while(|&&p| p == order.pieces[i]).count();
            order.norm[i] = run as u8;
            i += run;
        }

        let overflow = || FormatError::new("table size overflows");
        let mut size: u64 = 1;
        let mut k = 0;
        if pawn_table {
            let mut i = usize::from(order.norm[0]);
            if second < 0x0f {
                i += usize::from(order.norm[i]);
            }
            let mut free = 64 - i as i64;
            while i < n || k == first || k == second {
                if k == first {
                    order.factor[0] = size;
                    size = size.checked_mul(PAWN_FACTOR[usize::from(order.norm[0]) - 1][file]).ok_or_else(overflow)?;
                } else if k == second {
                    let lead = usize::from(order.norm[0]);
                    order.factor[lead] = size;
                    size = size
                        .checked_mul(binomial(48 - lead as i64, i64::from(order.norm[lead])))
                        .ok_or_else(overflow)?;
                } else {
                    order.factor[i] = size;
                    size = size.checked_mul(binomial(free, i64::from(order.norm[i]))).ok_or_else(overflow)?;
                    free -= i64::from(order.norm[i]);
                    i += usize::from(order.norm[i]);
                }
                k += 1;
            }
        } else {
            let mut i = usize::from(order.norm[0]);
            let mut free = 64 - i as i64;
            while i < n || k == first {
                if k == first {
                    order.factor[0] = size;
                    size = size.checked_mul(shape.leading.placements()).ok_or_else(overflow)?;
                } else {
                    order.factor[i] = size;
                    size = size.checked_mul(binomial(free, i64::from(order.norm[i]))).ok_or_else(overflow)?;
                    free -= i64::from(order.norm[i]);
                    i += usize::from(order.norm[i]);
                }
                k += 1;
            }
        }
        Ok((order, size))
    }

    /// The material these men make, White being the pieces without the black bit.
    fn material(&self, men: usize) -> Material {
        self.pieces[..men].iter().fold(Material::default(), |m, &code| {
            let color = if code & 8 == 0 { Color::White } else { Color::Black };
            m.add(color, Role::from_index(usize::from(code & 7) - 1))
        })
    }

    /// Fills `squares` with the position's men in this order, from index `from`; `flip_colors`
    /// reads White's men where the order says Black's, `mirror` flips ranks (xor 0x38).
    fn fill(
        &self,
        pos: &Position,
        men: usize,
        flip_colors: bool,
        mirror: u8,
        squares: &mut [u8; MAX_MEN],
        from: usize,
    ) -> FormatResult<()> {
        let mut i = from;
        while i < men {
            let code = self.pieces[i];
            let black = (code & 8 != 0) != flip_colors;
            let color = if black { Color::Black } else { Color::White };
            let bb = pos.pieces(color, Role::from_index(usize::from(code & 7) - 1));
            if bb.is_empty() {
                return Err(FormatError::new("the header's men differ from the position's"));
            }
            for sq in bb {
                *squares
                    .get_mut(i)
                    .filter(|_| i < men)
                    .ok_or_else(|| FormatError::new("the header's men differ from the position's"))? =
                    sq.index() as u8 ^ mirror;
                i += 1;
            }
        }
        Ok(())
    }
}

/// How a probe reads a position: with the colours swapped (and ranks mirrored), and which
/// side to move's section it reads.
#[derive(Clone, Copy)]
struct Orientation {
    flip: bool,
    mirror: u8,
    side: usize,
}

impl Orientation {
    fn new(pos: &Position, material: Material, shape: &Shape, key: Material) -> Orientation {
        let white = pos.turn() == Color::White;
        if shape.symmetric {
            Orientation { flip: !white, mirror: if white { 0 } else { 0x38 }, side: 0 }
        } else if material != key {
            Orientation { flip: true, mirror: 0x38, side: usize::from(white) }
        } else {
            Orientation { flip: false, mirror: 0, side: usize::from(!white) }
        }
    }
}

fn align(at: usize, to: usize) -> usize {
    at.div_ceil(to) * to
}

/// Checks the magic number, the size and the header's men against the table's name.
fn check_file(data: &[u8], kind: TableKind) -> FormatResult<()> {
    let magic = match kind {
        TableKind::Wdl => WDL_MAGIC,
        TableKind::Dtz => DTZ_MAGIC,
    };
    if data.get(..4) != Some(&magic[..]) {
        return Err(FormatError::new(format!("not a Syzygy {kind} table (magic number)")));
    }
    if data.len() % 64 != 16 {
        return Err(FormatError::new(format!("size {} is not that of a whole table (64n + 16 bytes)", data.len())));
    }
    Ok(())
}

/// A WDL table.
pub(crate) struct WdlTable {
    bytes: Bytes,
    shape: Shape,
    /// The colour order the table is stored in (of the header's men, not the file name).
    key: Material,
    /// Per section: the order and decoder for each side to move stored.
    sections: Vec<Vec<(Order, Pairs)>>,
}

/// A DTZ table: one side to move stored per section.
pub(crate) struct DtzTable {
    bytes: Bytes,
    shape: Shape,
    key: Material,
    sections: Vec<DtzSection>,
}

struct DtzSection {
    order: Order,
    pairs: Pairs,
    flags: u8,
    /// Offsets of the four maps from stored values to distances (win, loss, cursed win,
    /// blessed loss), when flag 2 says values are mapped: bytes, or `u16`s with flag 16.
    maps: [usize; 4],
}

/// Per section, per side to move: the order of the men and the number of indices.
type Orders = Vec<Vec<(Order, u64)>>;

/// The orders of every section for both sides (`nibbles` 2) or one, and their sizes.
fn read_orders(data: &[u8], shape: &Shape, material: Material, nibbles: u32) -> FormatResult<(Orders, usize)> {
    let mut at = 5;
    let sections = if shape.has_pawns() { 4 } else { 1 };
    let mut orders = Vec::new();
    for file in 0..sections {
        let mut sides = Vec::new();
        for nibble in 0..nibbles {
            let (order, size) = Order::read(data, at, shape, nibble, file)?;
            let m = order.material(shape.men);
            if m != material && m != material.mirrored() {
                return Err(FormatError::new(format!(
                    "the header lists the men {}, the file name {}",
                    m.name(),
                    material.name()
                )));
            }
            if shape.has_pawns()
                && (order.pieces[0] & 7 != 1 || order.pieces[1..shape.pawns[0]].iter().any(|&p| p != order.pieces[0]))
            {
                return Err(FormatError::new("the header's leading men are not pawns of one colour"));
            }
            sides.push((order, size));
        }
        orders.push(sides);
        at += shape.men + if shape.has_pawns() && shape.pawns[1] > 0 { 2 } else { 1 };
    }
    Ok((orders, at + (at & 1)))
}

/// The orientation key: pawnless tables as their header orders the men (some files are
/// stored with the colours of their name swapped), others as the name, normalised.
fn table_key(shape: &Shape, material: Material, first: &Order) -> Material {
    if shape.has_pawns() {
        material.normalized()
    } else {
        first.material(shape.men)
    }
}

impl WdlTable {
    pub(crate) fn new(bytes: Bytes, material: Material) -> FormatResult<WdlTable> {
        let data = bytes.as_slice();
        check_file(data, TableKind::Wdl)?;
        let shape = Shape::of(material);
        let flags = u8_at(data, 4)?;
        let split = flags & 1 != 0;
        let files = if flags & 2 != 0 { 4 } else { 1 };
        if shape.has_pawns() != (files == 4) {
            return Err(FormatError::new("the file flags disagree with the pawns of the name"));
        }
        let (orders, mut at) = read_orders(data, &shape, material, 2)?;
        let stored_sides = if split { 2 } else { 1 };
        let mut sections = Vec::new();
        let mut sizes = Vec::new();
        for sides in &orders[..files] {
            let mut section = Vec::new();
            for &(order, entries) in &sides[..stored_sides] {
                let Header { pairs, sizes: s, next, .. } = Pairs::read(data, at, entries, true)?;
                at = next;
                section.push((order, pairs));
                sizes.push(s);
            }
            sections.push(section);
        }
        let mut sizes = sizes.into_iter();
        let placed: Vec<(&mut Pairs, Sizes)> =
            sections.iter_mut().flatten().map(|(_, pairs)| (pairs, sizes.next().unwrap_or_default())).collect();
        place_sections(data, at, placed)?;
        let key = table_key(&shape, material, &orders[0][0].0);
        Ok(WdlTable { bytes, shape, key, sections })
    }

    /// The WDL value (-2 to 2) of a position with the table's men (`material`), the side to
    /// move's view.
    pub(crate) fn probe(&self, pos: &Position, material: Material) -> FormatResult<i8> {
        let data = self.bytes.as_slice();
        let o = Orientation::new(pos, material, &self.shape, self.key);
        let mut squares = [0u8; MAX_MEN];
        let men = self.shape.men;
        let value = if self.shape.has_pawns() {
            let lead = self.sections[0][0].0;
            lead.fill_leading(pos, &self.shape, o, &mut squares)?;
            let file = pawn_file(&mut squares[..men], self.shape.pawns[0]);
            let (order, pairs) = side(&self.sections, file, o.side)?;
            order.fill(pos, men, o.flip, o.mirror, &mut squares, self.shape.pawns[0])?;
            let idx =
                encode_pawns(self.shape.pawns[0], self.shape.pawns[1], &mut squares[..men], &order.norm, &order.factor);
            pairs.value(data, idx, false)?
        } else {
            let (order, pairs) = side(&self.sections, 0, o.side)?;
            order.fill(pos, men, o.flip, 0, &mut squares, 0)?;
            let idx = encode_pieces(self.shape.leading, &mut squares[..men], &order.norm, &order.factor)
                .ok_or_else(|| FormatError::new("kings in no legal placement"))?;
            pairs.value(data, idx, false)?
        };
        match value {
            0..=4 => Ok(value as i8 - 2),
            _ => Err(FormatError::new(format!("WDL value {value} out of range"))),
        }
    }
}

fn side(sections: &[Vec<(Order, Pairs)>], file: usize, side: usize) -> FormatResult<&(Order, Pairs)> {
    sections
        .get(file)
        .and_then(|s| s.get(side))
        .ok_or_else(|| FormatError::new("the table lacks the section this position needs"))
}

/// Places the sections' tables: every index table, then every size table, then each
/// section's data aligned to 64 bytes; checks that all of it lies inside the file.
fn place_sections(data: &[u8], at: usize, mut placed: Vec<(&mut Pairs, Sizes)>) -> FormatResult<()> {
    let sizes: Vec<Sizes> = placed.iter().map(|(_, s)| *s).collect();
    let mut offsets = vec![[0usize; 3]; sizes.len()];
    let mut at = at;
    for (i, s) in sizes.iter().enumerate() {
        offsets[i][0] = at;
        at = at.checked_add(s.index).ok_or_else(|| FormatError::new("index table size"))?;
    }
    for (i, s) in sizes.iter().enumerate() {
        offsets[i][1] = at;
        at = at.checked_add(s.size).ok_or_else(|| FormatError::new("size table size"))?;
    }
    for (i, s) in sizes.iter().enumerate() {
        at = align(at, 64);
        offsets[i][2] = at;
        at = at.checked_add(s.data).ok_or_else(|| FormatError::new("data size"))?;
    }
    if at > data.len() {
        return Err(FormatError::new(format!("the compressed data needs {at} bytes, the file has {}", data.len())));
    }
    for ((pairs, _), [index, size, values]) in placed.iter_mut().zip(offsets) {
        if let Pairs::Huffman(h) = pairs {
            h.place(index, size, values);
        }
    }
    Ok(())
}

impl Order {
    /// Fills the leading pawns, whose colour section 0's first order names.
    fn fill_leading(
        &self,
        pos: &Position,
        shape: &Shape,
        o: Orientation,
        squares: &mut [u8; MAX_MEN],
    ) -> FormatResult<()> {
        let code = self.pieces[0];
        let black = (code & 8 != 0) != o.flip;
        let bb = pos.pieces(if black { Color::Black } else { Color::White }, Role::Pawn);
        if bb.count() as usize != shape.pawns[0] {
            return Err(FormatError::new("the header's men differ from the position's"));
        }
        for (i, sq) in bb.into_iter().enumerate() {
            squares[i] = sq.index() as u8 ^ o.mirror;
        }
        Ok(())
    }
}

impl DtzTable {
    pub(crate) fn new(bytes: Bytes, material: Material) -> FormatResult<DtzTable> {
        let data = bytes.as_slice();
        check_file(data, TableKind::Dtz)?;
        let shape = Shape::of(material);
        let files = if u8_at(data, 4)? & 2 != 0 { 4 } else { 1 };
        if shape.has_pawns() != (files == 4) {
            return Err(FormatError::new("the file flags disagree with the pawns of the name"));
        }
        let (orders, mut at) = read_orders(data, &shape, material, 1)?;
        let mut sections = Vec::new();
        let mut sizes = Vec::new();
        for sides in &orders[..files] {
            let (order, entries) = sides[0];
            let Header { pairs, flags, sizes: s, next } = Pairs::read(data, at, entries, false)?;
            at = next;
            sections.push(DtzSection { order, pairs, flags, maps: [0; 4] });
            sizes.push(s);
        }
        let map_base = at;
        for section in &mut sections {
            if section.flags & 2 == 0 {
                continue;
            }
            if section.flags & 16 == 0 {
                for map in &mut section.maps {
                    *map = at + 1;
                    at += 1 + usize::from(u8_at(data, at)?);
                }
            } else {
                if shape.has_pawns() {
                    at += at & 1;
                }
                for map in &mut section.maps {
                    *map = map_base + 2 * ((at + 2 - map_base) / 2);
                    at += 2 + 2 * usize::from(u16_le(data, at)?);
                }
            }
        }
        at += at & 1;
        let mut sizes = sizes.into_iter();
        let placed: Vec<(&mut Pairs, Sizes)> =
            sections.iter_mut().map(|s| (&mut s.pairs, sizes.next().unwrap_or_default())).collect();
        place_sections(data, at, placed)?;
        let key = table_key(&shape, material, &orders[0][0].0);
        Ok(DtzTable { bytes, shape, key, sections })
    }

    /// The stored distance of a position whose WDL value is `wdl`, or `None` when the table
    /// stores the other side to move.
    pub(crate) fn probe(&self, pos: &Position, material: Material, wdl: i8) -> FormatResult<Option<i32>> {
        let data = self.bytes.as_slice();
        let o = Orientation::new(pos, material, &self.shape, self.key);
        let mut squares = [0u8; MAX_MEN];
        let men = self.shape.men;
        let (section, idx) = if self.shape.has_pawns() {
            self.sections[0].order.fill_leading(pos, &self.shape, o, &mut squares)?;
            let file = pawn_file(&mut squares[..men], self.shape.pawns[0]);
            let section =
                self.sections.get(file).ok_or_else(|| FormatError::new("the table lacks a pawn file section"))?;
            if usize::from(section.flags & 1) != o.side {
                return Ok(None);
            }
            section.order.fill(pos, men, o.flip, o.mirror, &mut squares, self.shape.pawns[0])?;
            let order = &section.order;
            (
                section,
                encode_pawns(self.shape.pawns[0], self.shape.pawns[1], &mut squares[..men], &order.norm, &order.factor),
            )
        } else {
            let section = &self.sections[0];
            if usize::from(section.flags & 1) != o.side && !self.shape.symmetric {
                return Ok(None);
            }
            section.order.fill(pos, men, o.flip, 0, &mut squares, 0)?;
            let order = &section.order;
            let idx = encode_pieces(self.shape.leading, &mut squares[..men], &order.norm, &order.factor)
                .ok_or_else(|| FormatError::new("kings in no legal placement"))?;
            (section, idx)
        };
        let mut value = section.pairs.value(data, idx, true)?;
        if section.flags & 2 != 0 {
            // Win, loss, cursed win, blessed loss: the map of each WDL value.
            let map = section.maps[usize::from([1u8, 3, 0, 2, 0][(wdl + 2) as usize])];
            value = if section.flags & 16 == 0 {
                u16::from(u8_at(data, map + usize::from(value))?)
            } else {
                u16_le(data, map + 2 * usize::from(value))?
            };
        }
        // Plain wins and losses may be stored in moves rather than plies.
        let in_plies = match wdl {
            2 => section.flags & 4 != 0,
            -2 => section.flags & 8 != 0,
            _ => false,
        };
        let mut dtz = i32::from(value);
        if !in_plies || wdl & 1 != 0 {
            dtz *= 2;
        }
        Ok(Some(dtz))
    }
}
