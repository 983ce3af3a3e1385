//! Material signatures: which men a position or a table holds, as a key for finding the
//! table and as the name of its files (`KQvKR`: White's men, `v`, Black's).

use tempo_core::{Color, Position, Role};

/// The order of roles in a table name.
const NAME_ORDER: [Role; 6] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];

/// The count of each man, four bits per (colour, role): White's six roles in the low 24
/// bits, Black's above.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Material(u64);

const fn shift(color: Color, role: Role) -> u32 {
    (color as u32 * 6 + role.index() as u32) * 4
}

impl Material {
    /// The men of a position.
    pub(crate) fn of(pos: &Position) -> Material {
        let mut key = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                key |= u64::from(pos.pieces(color, role).count()) << shift(color, role);
            }
        }
        Material(key)
    }

    /// The men a table name lists, if it is one (`K...vK...`, at most seven men).
    pub(crate) fn from_name(name: &str) -> Option<Material> {
        let (white, black) = name.split_once('v')?;
        if !white.starts_with('K') || !black.starts_with('K') || name.len() - 1 > crate::encoding::MAX_MEN {
            return None;
        }
        let mut material = Material(0);
        for (side, color) in [(white, Color::White), (black, Color::Black)] {
            for c in side.chars() {
                let role = Role::from_char(c.to_ascii_lowercase()).filter(|_| c.is_ascii_uppercase())?;
                material = material.add(color, role);
            }
            if material.count(color, Role::King) != 1 {
                return None;
            }
        }
        Some(material)
    }

    /// One more man.
    pub(crate) fn add(self, color: Color, role: Role) -> Material {
        Material(self.0 + (1 << shift(color, role)))
    }

    /// How many men of this colour and role.
    pub(crate) fn count(self, color: Color, role: Role) -> u32 {
        ((self.0 >> shift(color, role)) & 15) as u32
    }

    /// All men.
    pub(crate) fn men(self) -> u32 {
        Color::ALL.iter().flat_map(|&c| Role::ALL.iter().map(move |&r| self.count(c, r))).sum()
    }

    /// The same men with the colours swapped.
    pub(crate) fn mirrored(self) -> Material {
        Material((self.0 >> 24) | ((self.0 & 0xff_ffff) << 24))
    }

    /// Whether both sides have the same men.
    pub(crate) fn is_symmetric(self) -> bool {
        self == self.mirrored()
    }

    fn side_name(self, color: Color) -> String {
        NAME_ORDER
            .iter()
            .flat_map(|&role| std::iter::repeat_n(role.upper_char(), self.count(color, role) as usize))
            .collect()
    }

    /// The table name of these men in this colour order.
    pub(crate) fn name(self) -> String {
        format!("{}v{}", self.side_name(Color::White), self.side_name(Color::Black))
    }

    /// The orientation the Syzygy files are named and stored in: the side with more men
    /// first, and with as many, the side with the stronger men (earlier in `KQRBNP`).
    pub(crate) fn normalized(self) -> Material {
        let rank = |m: Material, color: Color| {
            let order: Vec<usize> = NAME_ORDER
                .iter()
                .enumerate()
                .flat_map(|(i, &role)| std::iter::repeat_n(i, m.count(color, role) as usize))
                .collect();
            order
        };
        let len = |color: Color| Role::ALL.iter().map(|&r| self.count(color, r)).sum::<u32>();
        // Swap when (White's count, Black's men) sorts before (Black's count, White's men).
        if (len(Color::White), rank(self, Color::Black)) < (len(Color::Black), rank(self, Color::White)) {
            self.mirrored()
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_and_write_back() {
        let m = Material::from_name("KQvKR").unwrap();
        assert_eq!(m.name(), "KQvKR");
        assert_eq!(m.mirrored().name(), "KRvKQ");
        assert_eq!(m.men(), 4);
        assert!(!m.is_symmetric());
        assert_eq!(m.mirrored().normalized().name(), "KQvKR");
        assert_eq!(Material::from_name("KBNvK").unwrap().mirrored().normalized().name(), "KBNvK");
        assert!(Material::from_name("KPvKP").unwrap().is_symmetric());
        for bad in ["KQK", "QvK", "KvQ", "KKvK", "KqvK", "KXvK", "KQRBNPPvK", ""] {
            assert_eq!(Material::from_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_position_has_the_material_of_its_name() {
        let pos: Position = "8/8/8/8/8/2k5/1p6/KR6 w - - 0 1".parse().unwrap();
        assert_eq!(Material::of(&pos).name(), "KRvKP");
    }
}
