//! The network contract, written once: what a feature is ([`InputMapping`]), which output
//! bucket a position uses ([`output_bucket`]), the quantisation constants, the file layout
//! ([`Header`]) and a network of any hidden size as the file holds it ([`QuantisedNet`]),
//! with the integer evaluation every other implementation must equal
//! ([`QuantisedNet::evaluate`]).
//!
//! The engine's [`Network`](super::Network) is a [`QuantisedNet`] of its own width laid out
//! for its vector kernels; the trainer (`tempo-tools train`) rounds its float model into a
//! [`QuantisedNet`] and reads `--init` files through [`QuantisedNet::from_bytes`], and its
//! data path computes features with [`InputMapping::feature`]. A new input mapping is a new
//! variant here (its code, its view of the board, its refresh rule) and a variant of the
//! trainer's command-line choice; nothing else on either side names features.
//!
//! The formulas and the byte layout are those of the `nnue` module documentation.

use std::fmt;
use std::str::FromStr;
use tempo_core::{Color, Piece, Position, Role, Square};

/// Input features per perspective and king bucket: 2 colours x 6 roles x 64 squares. A
/// mapping has [`InputMapping::inputs`] in all, this many per king bucket.
pub const INPUTS: usize = 768;
/// The king bucket of each rank of a perspective's own king, seen from its own side (rank 1
/// first) under [`InputMapping::KingBuckets4`]: the back rank and the next each have their
/// own, the king stepping up to ranks 3 and 4 another, and the rest of the board the last.
const KING_RANK_BUCKETS: [usize; 8] = [0, 1, 2, 2, 3, 3, 3, 3];
/// At most this many features are active per perspective (one per piece).
pub const MAX_ACTIVE: usize = 32;
/// Quantisation of the first layer (and of the activations): 1.0 is stored as 255.
pub const QA: i32 = 255;
/// The output weights' quantisation a file may have (1.0 stored as `QB`): from 64, the
/// coarsest the trainer's clipping allows, to 4096.
pub const QB_RANGE: std::ops::RangeInclusive<i32> = 64..=4096;
/// Centipawns per unit of the float model's output.
pub const SCALE: i32 = 400;
/// Largest output weight magnitude (`round(1.98 * 64)`, the trainer's clip at the coarsest
/// `QB`). The AVX2 output kernel multiplies a weight by an activation (at most 255) in 16
/// bits, which this bound keeps exact.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
/// The numbers of output buckets a network may have: they divide 32, so that each bucket
/// spans the same number of piece counts.
pub const OUTPUT_BUCKET_COUNTS: [usize; 4] = [1, 2, 4, 8];
/// Activation code of SCReLU, the only activation of the format.
pub const SCRELU: u32 = 1;

/// The file's first 8 bytes.
pub const MAGIC: [u8; 8] = *b"TEMPONNU";
/// The newest format version: the input mapping after the header's version 2 fields, and an
/// output quantisation per bucket after the weights. Versions 1 to 3 are read; a network is
/// written in the oldest version that holds it (version 2 for plain inputs and one `QB`), so
/// that a file read and written again is unchanged.
pub const VERSION: u32 = 3;
/// Bytes before the weights in versions 1 and 2; version 3 adds a 4-byte field.
const HEADER_BYTES: usize = 40;

/// The output bucket of a position with `pieces` pieces on the board (kings included), for a
/// network of `buckets` buckets: `min((pieces - 2) / (32 / buckets), buckets - 1)`.
///
/// # Panics
/// If `buckets` is 0 (debug builds also check that it is one of [`OUTPUT_BUCKET_COUNTS`]).
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    debug_assert!(OUTPUT_BUCKET_COUNTS.contains(&buckets), "{buckets} output buckets");
    (pieces.saturating_sub(2) / (32 / buckets)).min(buckets - 1)
}

/// How each perspective's features see the board: the file's input mapping.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum InputMapping {
    /// From the perspective's own side of the board (Black's view flips the ranks): format
    /// versions 1 and 2, and code 0 of version 3.
    #[default]
    Plain,
    /// Also with the files flipped while the perspective's own king stands on files e to h,
    /// so that each side sees its king on files a to d (version 3, code 1).
    Mirrored,
    /// [`InputMapping::Mirrored`] with 4 king buckets, 4 x 768 inputs (version 3, code 2): a
    /// separate set of 768 features for each bucket of the rank of the perspective's own
    /// king, seen from its own side (rank 1: bucket 0, rank 2: 1, ranks 3 and 4: 2, ranks 5
    /// to 8: 3). Feature = bucket x 768 + the mirrored feature, so that the weights of a
    /// piece can depend on where the own king stands.
    KingBuckets4,
}

impl InputMapping {
    /// Every mapping, in code order.
    pub const ALL: [InputMapping; 3] = [InputMapping::Plain, InputMapping::Mirrored, InputMapping::KingBuckets4];

    /// The mapping's code in version 3 files (and the trainer's checkpoints).
    pub const fn code(self) -> u32 {
        match self {
            InputMapping::Plain => 0,
            InputMapping::Mirrored => 1,
            InputMapping::KingBuckets4 => 2,
        }
    }

    /// The mapping with this code.
    pub const fn from_code(code: u32) -> Option<InputMapping> {
        match code {
            0 => Some(InputMapping::Plain),
            1 => Some(InputMapping::Mirrored),
            2 => Some(InputMapping::KingBuckets4),
            _ => None,
        }
    }

    /// The mapping's name: `plain`, `mirrored` or `king-buckets4`.
    pub const fn name(self) -> &'static str {
        match self {
            InputMapping::Plain => "plain",
            InputMapping::Mirrored => "mirrored",
            InputMapping::KingBuckets4 => "king-buckets4",
        }
    }

    /// The number of king buckets: sets of [`INPUTS`] features, one chosen by where the
    /// perspective's own king stands.
    pub const fn king_buckets(self) -> usize {
        match self {
            InputMapping::Plain | InputMapping::Mirrored => 1,
            InputMapping::KingBuckets4 => 4,
        }
    }

    /// The number of input features per perspective: [`INPUTS`] per king bucket (the first
    /// layer has this many rows).
    pub const fn inputs(self) -> usize {
        INPUTS * self.king_buckets()
    }

    /// Whether the view flips the files while the own king stands on files e to h, so that a
    /// position and its file mirror (without castling rights) have the same features.
    pub const fn mirrors_files(self) -> bool {
        matches!(self, InputMapping::Mirrored | InputMapping::KingBuckets4)
    }

    /// How `perspective`, whose king stands on `king`, sees the board.
    #[inline]
    pub fn view(self, perspective: Color, king: Square) -> View {
        let ranks = if perspective == Color::White { 0 } else { 56 };
        let files = if self.mirrors_files() && king_side(king) { 7 } else { 0 };
        let offset = match self {
            InputMapping::Plain | InputMapping::Mirrored => 0,
            // The king's rank from its own side: `ranks` flips Black's.
            InputMapping::KingBuckets4 => KING_RANK_BUCKETS[(king.index() ^ ranks) >> 3] * INPUTS,
        };
        View { perspective, flip: ranks ^ files, offset }
    }

    /// The feature (below [`InputMapping::inputs`]) that `piece` on `square` activates in the
    /// accumulator of `perspective`, whose king stands on `king`.
    #[inline]
    pub fn feature(self, perspective: Color, piece: Piece, square: Square, king: Square) -> usize {
        self.view(perspective, king).index(piece, square)
    }

    /// Whether a move of `perspective`'s king from `from` to `to` changes how that side sees
    /// every piece (its view flips the files, or the king changes bucket), so that its
    /// accumulator must be recomputed rather than updated by the move.
    #[inline]
    pub fn needs_refresh(self, perspective: Color, from: Square, to: Square) -> bool {
        // Spelled out per mapping rather than comparing the two views: the search asks at
        // every king move, and the default network's answer needs no view.
        match self {
            InputMapping::Plain => false,
            InputMapping::Mirrored => king_side(from) != king_side(to),
            InputMapping::KingBuckets4 => self.view(perspective, from) != self.view(perspective, to),
        }
    }

    /// The active features of `pos` for `perspective`, written into `out` in a fixed order
    /// (White's pieces, then Black's, each by role and square); returns how many.
    pub fn position_features(self, pos: &Position, perspective: Color, out: &mut [u16; MAX_ACTIVE]) -> usize {
        let view = self.view(perspective, pos.king_of(perspective));
        let mut n = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                for square in pos.pieces(color, role) {
                    if n < MAX_ACTIVE {
                        out[n] = view.index(Piece::new(color, role), square) as u16;
                    }
                    n += 1;
                }
            }
        }
        n.min(MAX_ACTIVE)
    }
}

impl fmt::Display for InputMapping {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An input mapping name other than `plain`, `mirrored` and `king-buckets4`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown input mapping {0:?}; the format knows \"plain\", \"mirrored\" and \"king-buckets4\"")]
pub struct ParseInputMappingError(String);

impl FromStr for InputMapping {
    type Err = ParseInputMappingError;

    fn from_str(s: &str) -> Result<InputMapping, ParseInputMappingError> {
        InputMapping::ALL.into_iter().find(|m| m.name() == s).ok_or_else(|| ParseInputMappingError(s.to_owned()))
    }
}

/// Whether a king on `square` stands on files e to h (where mirrored inputs flip the files).
#[inline]
fn king_side(square: Square) -> bool {
    square.index() & 7 >= 4
}

/// One perspective's view of the board under an input mapping, with the king's square
/// already taken into account: the incremental updates compute it once per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    perspective: Color,
    /// XORed into a square's index: 56 flips the ranks, 7 the files.
    flip: usize,
    /// The first feature of the king's bucket: its number times [`INPUTS`].
    offset: usize,
}

impl View {
    /// The feature `piece` on `square` activates: own pieces first, then the opponent's,
    /// each by role, on the square as this view sees it.
    #[inline]
    pub fn index(self, piece: Piece, square: Square) -> usize {
        let side = if piece.color == self.perspective { 0 } else { 6 };
        (side + piece.role.index()) * 64 + (square.index() ^ self.flip) + self.offset
    }

    /// [`View::index`] of a [`packed`] piece and square, in a few integer operations (for
    /// the trainer, which computes the features of millions of stored positions).
    #[inline(always)]
    pub fn index_packed(self, packed: u16) -> usize {
        // White's plain view is the packing itself; Black's swaps the colour halves.
        let packed = usize::from(packed);
        let swapped = if self.perspective == Color::White { packed } else { (packed + INPUTS / 2) % INPUTS };
        (swapped ^ self.flip) + self.offset
    }
}

/// `piece` on `square` in 16 bits, `(colour * 6 + role) * 64 + square`, the form
/// [`View::index_packed`] reads: a position stored once serves both perspectives.
#[inline]
pub fn packed(piece: Piece, square: Square) -> u16 {
    ((piece.color.index() * 6 + piece.role.index()) * 64 + square.index()) as u16
}

/// A [`packed`] piece on the square of the other wing (files a and h swapped).
#[inline(always)]
pub fn mirror_packed(packed: u16) -> u16 {
    packed ^ 7
}

/// Why bytes are not a network. Each message says what was found and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// Fewer bytes than the header (40 bytes, 44 in version 3).
    #[error("file is {} bytes, too short for the header of a network file", grouped(*.0))]
    TooShort(usize),
    /// The first 8 bytes are not `TEMPONNU`.
    #[error("not a Tempo network: the file starts with {}, not \"TEMPONNU\"", escaped(.0))]
    Magic([u8; 8]),
    /// A format version other than 1, 2 and 3.
    #[error("network format version {0} is not supported; this build reads versions 1 to {VERSION}")]
    Version(u32),
    /// An input count other than the input mapping's (768 per king bucket).
    #[error("network has {found} input features; its input mapping ({mapping}) has {}", mapping.inputs())]
    Inputs {
        /// The count in the file.
        found: u32,
        /// The input mapping the file declares (plain before version 3).
        mapping: InputMapping,
    },
    /// A hidden layer of no neurons.
    #[error("network has no hidden neurons")]
    NoHidden,
    /// A hidden layer of another size than the engine's network of a fixed size expects (the
    /// format allows any).
    #[error("network has {found} hidden neurons; this build expects {expected}")]
    Hidden {
        /// The size in the file.
        found: usize,
        /// The size of the engine's network.
        expected: usize,
    },
    /// An activation other than SCReLU (1).
    #[error("network activation {0} is not supported; the format knows only {SCRELU} (SCReLU)")]
    Activation(u32),
    /// A quantisation or scale constant other than the format's.
    #[error("network {name} is {found}; the format requires {expected}")]
    Constant {
        /// `QA` or `SCALE`.
        name: &'static str,
        /// The value in the file.
        found: i32,
        /// The value the format fixes.
        expected: i32,
    },
    /// An output quantisation `QB` outside 64 to 4096 (versions 1 and 2: the header's; version
    /// 3: a bucket's), or a version 3 header whose `QB` field is not 0.
    #[error("network QB is {0}; the format allows {low} to {high}", low = QB_RANGE.start(), high = QB_RANGE.end())]
    OutputScale(i32),
    /// A version 1 header whose reserved field is not zero.
    #[error("network header's reserved field is {0}; it must be 0 in version 1")]
    Reserved(u32),
    /// An input mapping other than 0 (plain), 1 (mirrored) and 2 (king buckets), version 3.
    #[error(
        "network input mapping {0} is not supported; the format knows 0 (plain), 1 (mirrored by the king's file) and 2 (mirrored, 4 buckets by the king's rank)"
    )]
    InputMapping(u32),
    /// An output bucket count other than 1, 2, 4 and 8 (versions 2 and 3).
    #[error("network has {0} output buckets; the format allows 1, 2, 4 or 8")]
    OutputBuckets(u32),
    /// The file is not exactly the size its header implies.
    #[error(
        "file is {} bytes; a version {version} file of a {hidden}-neuron network with {mapping} inputs and {buckets} output bucket{} is {} bytes",
        grouped(*found),
        if *buckets == 1 { "" } else { "s" },
        grouped(*expected)
    )]
    Size {
        /// The file's size.
        found: usize,
        /// The size its header implies.
        expected: usize,
        /// The format version its header declares.
        version: u32,
        /// The hidden neurons its header declares.
        hidden: usize,
        /// The output buckets its header declares.
        buckets: usize,
        /// The input mapping its header declares (plain before version 3).
        mapping: InputMapping,
    },
    /// An output weight outside `-127..=127` (the trainer clips `W2` to 1.98, i.e. 127 after
    /// quantisation; larger values would overflow the 16-bit product of the output layer).
    #[error("output weight {index} is {value}; the format allows -{MAX_OUTPUT_WEIGHT} to {MAX_OUTPUT_WEIGHT}")]
    OutputWeight {
        /// Its index in `W2q` (0 to `B * 2 * H - 1`).
        index: usize,
        /// Its value.
        value: i16,
    },
}

/// `197420` as `197,420`.
pub(crate) fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes as a quoted string with non-printable bytes escaped (`"MZ\x90\x00..."`).
fn escaped(bytes: &[u8]) -> String {
    format!("\"{}\"", bytes.escape_ascii())
}

/// A file's header: everything before the weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The format version, 1 to 3.
    pub version: u32,
    /// Hidden neurons per perspective, H.
    pub hidden: usize,
    /// Output buckets, B.
    pub buckets: usize,
    /// The input mapping (plain before version 3).
    pub mapping: InputMapping,
    /// The one `QB` of every bucket in versions 1 and 2; 0 in version 3 (the list after the
    /// weights holds each bucket's).
    pub shared_qb: i32,
}

impl Header {
    /// Bytes before the weights in a file of this version.
    pub const fn len(&self) -> usize {
        if self.version >= 3 {
            HEADER_BYTES + 4
        } else {
            HEADER_BYTES
        }
    }

    /// Whether the header has no bytes: never (for the `len` convention).
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// The size of the whole file this header describes, or `None` if it does not fit in
    /// `usize` (a corrupt hidden size).
    pub fn file_size(&self) -> Option<usize> {
        let (h, b) = (self.hidden, self.buckets);
        let scales = if self.version >= 3 { 4 * b } else { 0 };
        // 2 * inputs * H (W1) + 2 * H (b1) + B * (4 * H (W2) + 4 (b2)) + the QB list.
        let weights = h.checked_mul(2 * self.mapping.inputs() + 2 + 4 * b)?;
        weights.checked_add(self.len() + 4 * b + scales)
    }

    /// Reads and checks the header at the start of `bytes` (not the size of the rest).
    ///
    /// # Errors
    /// A [`NetworkError`] naming the first problem: a file shorter than the header, a wrong
    /// magic or version, no hidden neurons, a wrong activation, `QA` or `SCALE`, a `QB`
    /// outside 64 to 4096 (or, in version 3, a header `QB` other than 0), an output bucket
    /// count other than 1, 2, 4 or 8 (versions 2 and 3) or a non-zero reserved field (version
    /// 1), an input mapping other than 0, 1 and 2 (version 3), or an input count other than
    /// the mapping's.
    pub fn parse(bytes: &[u8]) -> Result<Header, NetworkError> {
        if bytes.len() < HEADER_BYTES {
            return Err(NetworkError::TooShort(bytes.len()));
        }
        let mut r = Reader { bytes };
        let magic = r.take::<8>();
        if magic != MAGIC {
            return Err(NetworkError::Magic(magic));
        }
        let version = r.u32();
        if !(1..=VERSION).contains(&version) {
            return Err(NetworkError::Version(version));
        }
        // Checked once the mapping (at the end of a version 3 header) is known.
        let inputs = r.u32();
        let hidden = r.u32();
        if hidden == 0 {
            return Err(NetworkError::NoHidden);
        }
        let activation = r.u32();
        if activation != SCRELU {
            return Err(NetworkError::Activation(activation));
        }
        let (qa, shared_qb, scale) = (r.i32(), r.i32(), r.i32());
        for (name, found, expected) in [("QA", qa, QA), ("SCALE", scale, SCALE)] {
            if found != expected {
                return Err(NetworkError::Constant { name, found, expected });
            }
        }
        // Version 3 gives each bucket its own, after the weights.
        if (version < 3 && !QB_RANGE.contains(&shared_qb)) || (version >= 3 && shared_qb != 0) {
            return Err(NetworkError::OutputScale(shared_qb));
        }
        let field = r.u32();
        let buckets = match version {
            1 if field != 0 => return Err(NetworkError::Reserved(field)),
            1 => 1,
            _ if !OUTPUT_BUCKET_COUNTS.contains(&(field as usize)) => return Err(NetworkError::OutputBuckets(field)),
            _ => field as usize,
        };
        let mapping = if version >= 3 {
            if bytes.len() < HEADER_BYTES + 4 {
                return Err(NetworkError::TooShort(bytes.len()));
            }
            let code = r.u32();
            InputMapping::from_code(code).ok_or(NetworkError::InputMapping(code))?
        } else {
            InputMapping::Plain
        };
        if inputs as usize != mapping.inputs() {
            return Err(NetworkError::Inputs { found: inputs, mapping });
        }
        Ok(Header { version, hidden: hidden as usize, buckets, mapping, shared_qb })
    }

    /// Appends the header's bytes to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&MAGIC);
        for field in [self.version, self.mapping.inputs() as u32, self.hidden as u32, SCRELU] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        for constant in [QA, self.shared_qb, SCALE] {
            out.extend_from_slice(&constant.to_le_bytes());
        }
        let field = if self.version == 1 { 0 } else { self.buckets as u32 };
        out.extend_from_slice(&field.to_le_bytes());
        if self.version >= 3 {
            out.extend_from_slice(&self.mapping.code().to_le_bytes());
        }
    }
}

/// Reads little-endian integers from the bytes in order; the caller checks the length first.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, tail) = self.bytes.split_at(N);
        self.bytes = tail;
        head.try_into().expect("split_at gives N bytes")
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }

    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }

    fn i16s(&mut self, n: usize) -> Vec<i16> {
        (0..n).map(|_| i16::from_le_bytes(self.take())).collect()
    }

    fn i32s(&mut self, n: usize) -> Vec<i32> {
        (0..n).map(|_| self.i32()).collect()
    }
}

/// A network of any hidden size as its file holds it: the quantised weights in file order.
///
/// This is the format's one reader and writer ([`QuantisedNet::from_bytes`],
/// [`QuantisedNet::to_bytes`]) and its integer reference ([`QuantisedNet::evaluate`]): the
/// engine's vector kernels and the trainer's rounding are tested against it.
#[derive(Clone, PartialEq, Eq)]
pub struct QuantisedNet {
    /// Hidden neurons per perspective, H.
    pub hidden: usize,
    /// How each perspective sees the board.
    pub mapping: InputMapping,
    /// `W1q`, feature-major: the H weights of feature `f` at `[f*H .. f*H + H)`, for the
    /// mapping's [`InputMapping::inputs`] features.
    pub w1: Vec<i16>,
    /// `b1q`, H entries.
    pub b1: Vec<i16>,
    /// `W2q`, bucket by bucket: H for the side to move's accumulator, then H for the other's.
    pub w2: Vec<i16>,
    /// `b2q`, one per bucket.
    pub b2: Vec<i32>,
    /// `QB`, one per bucket: 1.0 of that bucket's output weights is stored as this.
    pub qb: Vec<i32>,
}

impl fmt::Debug for QuantisedNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Hundreds of thousands of weights help nobody; the shape and the output layer's
        // constants identify a network.
        f.debug_struct("QuantisedNet")
            .field("hidden", &self.hidden)
            .field("buckets", &self.buckets())
            .field("mapping", &self.mapping)
            .field("qb", &self.qb)
            .field("b2", &self.b2)
            .finish()
    }
}

impl QuantisedNet {
    /// The number of output buckets, B.
    pub fn buckets(&self) -> usize {
        self.b2.len()
    }

    /// The header this network is written with: the oldest version that holds it (version 2
    /// for plain inputs and one `QB` for every bucket, version 3 otherwise).
    pub fn header(&self) -> Header {
        let shared = self.qb.iter().all(|&qb| qb == self.qb[0]);
        let version = if self.mapping == InputMapping::Plain && shared { 2 } else { VERSION };
        let shared_qb = if version >= 3 { 0 } else { self.qb[0] };
        Header { version, hidden: self.hidden, buckets: self.buckets(), mapping: self.mapping, shared_qb }
    }

    /// Parses a network file of any hidden size, version 3, 2 or 1.
    ///
    /// # Errors
    /// A [`NetworkError`] naming the first problem: one of [`Header::parse`]'s, a size other
    /// than the header implies, a bucket's `QB` outside 64 to 4096, or an output weight
    /// outside `-127..=127`.
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantisedNet, NetworkError> {
        let header = Header::parse(bytes)?;
        let Header { version, hidden, buckets, mapping, shared_qb } = header;
        let expected = header.file_size().unwrap_or(usize::MAX);
        if bytes.len() != expected {
            return Err(NetworkError::Size { found: bytes.len(), expected, version, hidden, buckets, mapping });
        }
        let mut r = Reader { bytes: &bytes[header.len()..] };
        let w1 = r.i16s(mapping.inputs() * hidden);
        let b1 = r.i16s(hidden);
        let w2 = r.i16s(buckets * 2 * hidden);
        let b2 = r.i32s(buckets);
        let qb = if version >= 3 { r.i32s(buckets) } else { vec![shared_qb; buckets] };
        debug_assert!(r.bytes.is_empty());
        if let Some(&qb) = qb.iter().find(|qb| !QB_RANGE.contains(qb)) {
            return Err(NetworkError::OutputScale(qb));
        }
        if let Some((index, &value)) =
            w2.iter().enumerate().find(|(_, w)| !(-MAX_OUTPUT_WEIGHT..=MAX_OUTPUT_WEIGHT).contains(w))
        {
            return Err(NetworkError::OutputWeight { index, value });
        }
        Ok(QuantisedNet { hidden, mapping, w1, b1, w2, b2, qb })
    }

    /// The network as a file in the version [`QuantisedNet::header`] chooses:
    /// [`QuantisedNet::from_bytes`] of the result gives it back.
    ///
    /// # Panics
    /// If the vectors' lengths do not match `hidden` and the number of buckets.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (h, b) = (self.hidden, self.buckets());
        assert!(
            self.w1.len() == self.mapping.inputs() * h
                && self.b1.len() == h
                && self.w2.len() == 2 * h * b
                && self.qb.len() == b,
            "a network's weights match its shape"
        );
        let header = self.header();
        let size = header.file_size().expect("a network in memory has a size");
        let mut out = Vec::with_capacity(size);
        header.write(&mut out);
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        if header.version >= 3 {
            for qb in &self.qb {
                out.extend_from_slice(&qb.to_le_bytes());
            }
        }
        debug_assert_eq!(out.len(), size);
        out
    }

    /// The network's evaluation of `pos` in centipawns, side to move: the integer formula of
    /// the format computed plainly, from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let (mut stm, mut other) = ([0; MAX_ACTIVE], [0; MAX_ACTIVE]);
        let n = self.mapping.position_features(pos, pos.turn(), &mut stm);
        self.mapping.position_features(pos, !pos.turn(), &mut other);
        self.evaluate_features(&stm[..n], &other[..n])
    }

    /// The evaluation of the position whose active features (under [`QuantisedNet::mapping`])
    /// are `stm` for the side to move and `other` for its opponent: one per piece, so their
    /// number chooses the output bucket.
    ///
    /// # Panics
    /// If a feature is not below the mapping's [`InputMapping::inputs`].
    pub fn evaluate_features(&self, stm: &[u16], other: &[u16]) -> i32 {
        let h = self.hidden;
        let accumulator = |features: &[u16]| -> Vec<i16> {
            let mut acc = self.b1.clone();
            for &f in features {
                let row = &self.w1[usize::from(f) * h..(usize::from(f) + 1) * h];
                // The format's accumulators are i16 and wrap, as the vector instructions do.
                acc.iter_mut().zip(row).for_each(|(a, &w)| *a = a.wrapping_add(w));
            }
            acc
        };
        let bucket = output_bucket(stm.len(), self.buckets());
        let w2 = &self.w2[2 * h * bucket..2 * h * (bucket + 1)];
        let activated = |acc: Vec<i16>, weights: &[i16]| -> i64 {
            acc.iter()
                .zip(weights)
                .map(|(&a, &w)| {
                    let v = i64::from(a).clamp(0, i64::from(QA));
                    v * v * i64::from(w)
                })
                .sum()
        };
        let sum = activated(accumulator(stm), &w2[..h]) + activated(accumulator(other), &w2[h..]);
        let out = sum / i64::from(QA) + i64::from(self.b2[bucket]);
        (out * i64::from(SCALE) / i64::from(QA * self.qb[bucket])) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_follow_the_contract() {
        let plain = |perspective, piece, square| InputMapping::Plain.feature(perspective, piece, square, Square::E1);
        let white_pawn = Piece::new(Color::White, Role::Pawn);
        let black_king = Piece::new(Color::Black, Role::King);
        let e2 = Square::new(12).unwrap();
        // Own pawn on e2 from White's view; the same pawn is the opponent's, on e7, for Black.
        assert_eq!(plain(Color::White, white_pawn, e2), 12);
        assert_eq!(plain(Color::Black, white_pawn, e2), 6 * 64 + 52);
        // Black's king on e8: own king on e1 for Black, opponent's king on e8 for White.
        assert_eq!(plain(Color::Black, black_king, Square::E8), 5 * 64 + 4);
        assert_eq!(plain(Color::White, black_king, Square::E8), 11 * 64 + 60);
        // Every (perspective, piece, square) has its own index in each perspective, under each
        // mapping and wherever the king stands: the 768 of one king bucket.
        for mapping in InputMapping::ALL {
            for king in [Square::A1, Square::E1, Square::H8, Square::new(27).unwrap()] {
                for perspective in Color::ALL {
                    let mut seen = vec![false; mapping.inputs()];
                    for color in Color::ALL {
                        for role in Role::ALL {
                            for sq in Square::all() {
                                let i = mapping.feature(perspective, Piece::new(color, role), sq, king);
                                assert!(!seen[i]);
                                seen[i] = true;
                            }
                        }
                    }
                    let bucket = seen.iter().position(|&s| s).unwrap() / INPUTS;
                    assert!(seen[bucket * INPUTS..(bucket + 1) * INPUTS].iter().all(|&s| s));
                    assert_eq!(seen.iter().filter(|&&s| s).count(), INPUTS);
                }
            }
        }
    }

    #[test]
    fn a_mirrored_view_flips_the_files_while_the_king_is_on_the_king_side() {
        let white_pawn = Piece::new(Color::White, Role::Pawn);
        let e2 = Square::new(12).unwrap();
        let mirrored = InputMapping::Mirrored;
        // e2 is d2 mirrored; for Black also rank 7.
        assert_eq!(mirrored.feature(Color::White, white_pawn, e2, Square::G1), 11);
        assert_eq!(mirrored.feature(Color::Black, white_pawn, e2, Square::E8), 6 * 64 + 51);
        assert_eq!(mirrored.feature(Color::White, white_pawn, e2, Square::D1), 12);
        let (white, black) = (Color::White, Color::Black);
        assert!(mirrored.needs_refresh(white, Square::D1, Square::E1));
        assert!(mirrored.needs_refresh(black, Square::E8, Square::C8));
        assert!(!mirrored.needs_refresh(white, Square::E1, Square::G1));
        assert!(!mirrored.needs_refresh(black, Square::A8, Square::D7));
        assert!(!InputMapping::Plain.needs_refresh(white, Square::D1, Square::E1));
    }

    #[test]
    fn king_buckets_follow_the_rank_of_the_own_king_from_its_own_side() {
        let kb = InputMapping::KingBuckets4;
        let white_pawn = Piece::new(Color::White, Role::Pawn);
        let e2 = Square::new(12).unwrap();
        let sq = |name: &str| name.parse::<Square>().unwrap();
        // The mirrored feature of the pawn (e2 seen as d2, 11) in the bucket of the king.
        for (king, bucket) in [("g1", 0), ("g2", 1), ("g3", 2), ("h4", 2), ("e5", 3), ("f8", 3)] {
            assert_eq!(kb.feature(Color::White, white_pawn, e2, sq(king)), bucket * INPUTS + 11, "{king}");
        }
        // Black's ranks count from the eighth; on files a to d nothing is mirrored.
        for (king, bucket) in [("c8", 0), ("c7", 1), ("b6", 2), ("a5", 2), ("d4", 3), ("a1", 3)] {
            assert_eq!(kb.feature(Color::Black, white_pawn, e2, sq(king)), bucket * INPUTS + 6 * 64 + 52, "{king}");
        }
        assert_eq!(kb.inputs(), 4 * 768);
        let (white, black) = (Color::White, Color::Black);
        for (perspective, from, to, refresh) in [
            (white, "e1", "e2", true),  // bucket 0 to 1
            (white, "e3", "f4", false), // bucket 2, files e to h
            (white, "d3", "e4", true),  // bucket 2, the files flip
            (white, "c5", "d8", false), // bucket 3
            (black, "e8", "e7", true),  // bucket 0 to 1
            (black, "e2", "e1", false), // Black's rank 7 and 8: bucket 3
            (black, "d5", "d4", true),  // bucket 2 to 3
        ] {
            assert_eq!(kb.needs_refresh(perspective, sq(from), sq(to)), refresh, "{perspective:?} {from}{to}");
        }
        assert!(!InputMapping::Mirrored.needs_refresh(white, sq("e1"), sq("e2")));
    }

    #[test]
    fn packed_pieces_give_the_same_features() {
        for mapping in InputMapping::ALL {
            // Kings on both wings, and (for king buckets) in each bucket of both sides.
            let kings = ["e1", "c8", "g8", "b2", "f7", "g3", "d5", "c6", "h4", "e7", "c2"];
            for (k, king) in kings.iter().enumerate() {
                let (perspective, king) = ([Color::White, Color::Black][k % 2], king.parse::<Square>().unwrap());
                let view = mapping.view(perspective, king);
                for color in Color::ALL {
                    for role in Role::ALL {
                        for square in Square::all() {
                            let piece = Piece::new(color, role);
                            let mirrored = Square::new(square.index() as u32 ^ 7).unwrap();
                            assert_eq!(view.index_packed(packed(piece, square)), view.index(piece, square));
                            assert_eq!(
                                view.index_packed(mirror_packed(packed(piece, square))),
                                view.index(piece, mirrored)
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn mappings_have_codes_and_names() {
        for mapping in InputMapping::ALL {
            assert_eq!(InputMapping::from_code(mapping.code()), Some(mapping));
            assert_eq!(mapping.to_string().parse(), Ok(mapping));
        }
        assert_eq!(InputMapping::from_code(3), None);
        let err = "king".parse::<InputMapping>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown input mapping \"king\"; the format knows \"plain\", \"mirrored\" and \"king-buckets4\""
        );
        assert_eq!(InputMapping::ALL.map(InputMapping::inputs), [768, 768, 3072]);
    }

    /// A small network of any width reads back, in the version its contents need.
    #[test]
    fn a_network_of_any_width_reads_back() {
        for (hidden, buckets, mapping, qb, version) in [
            (8, 1, InputMapping::Plain, vec![64], 2),
            (24, 4, InputMapping::Plain, vec![64, 128, 64, 64], 3),
            (16, 2, InputMapping::Mirrored, vec![256, 256], 3),
            (8, 8, InputMapping::KingBuckets4, vec![64; 8], 3),
        ] {
            let weight = |k: usize| (k as i16 % 255) - 127;
            let net = QuantisedNet {
                hidden,
                mapping,
                w1: (0..mapping.inputs() * hidden).map(weight).collect(),
                b1: (0..hidden).map(weight).collect(),
                w2: (0..2 * hidden * buckets).map(weight).collect(),
                b2: (0..buckets as i32).map(|b| b * 1000 - 7).collect(),
                qb,
            };
            let bytes = net.to_bytes();
            let header = Header::parse(&bytes).unwrap();
            assert_eq!(
                (header.version, header.hidden, header.buckets, header.mapping),
                (version, hidden, buckets, mapping)
            );
            assert_eq!(header.file_size(), Some(bytes.len()));
            assert_eq!(QuantisedNet::from_bytes(&bytes).unwrap(), net);
        }
    }

    #[test]
    fn a_header_of_absurd_size_is_an_error_not_an_overflow() {
        let mut bytes = Vec::new();
        Header { version: 2, hidden: u32::MAX as usize, buckets: 8, mapping: InputMapping::Plain, shared_qb: 64 }
            .write(&mut bytes);
        assert!(matches!(QuantisedNet::from_bytes(&bytes), Err(NetworkError::Size { .. })));
        bytes[16..20].copy_from_slice(&0u32.to_le_bytes());
        assert_eq!(QuantisedNet::from_bytes(&bytes), Err(NetworkError::NoHidden));
    }
}
