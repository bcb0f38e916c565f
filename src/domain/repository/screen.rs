//! Screens of a long list (the versions of a repository): which slice one screen shows,
//! how many screens there are, and on which screen an item is.

use serde::Serialize;

/// Versions per screen of the versions page.
pub const VERSIONS_PER_SCREEN: u64 = 50;

/// One screen of a list: its index from 0 and the items it shows at most (at least 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Screen {
    index: u64,
    size: u64,
}

impl Screen {
    pub fn new(index: u64, size: u64) -> Self {
        Self {
            index,
            size: size.max(1),
        }
    }

    /// The screen showing the item at `position` (from 0) of the list.
    pub fn containing(position: u64, size: u64) -> Self {
        let size = size.max(1);
        Self::new(position / size, size)
    }

    pub fn index(self) -> u64 {
        self.index
    }

    pub fn size(self) -> u64 {
        self.size
    }

    /// The position of this screen's first item.
    pub fn offset(self) -> u64 {
        self.index.saturating_mul(self.size)
    }

    /// The index of the last screen of a list of `total` items (0 when it is empty).
    pub fn last_index(self, total: u64) -> u64 {
        total.div_ceil(self.size).saturating_sub(1)
    }

    /// Past the end of a list of `total` items (a screen of an empty list is not past it).
    pub fn is_past(self, total: u64) -> bool {
        self.index > self.last_index(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_screen_starts_at_its_index_times_its_size() {
        assert_eq!(Screen::new(0, 50).offset(), 0);
        assert_eq!(Screen::new(3, 50).offset(), 150);
        assert_eq!(Screen::new(u64::MAX, 50).offset(), u64::MAX, "saturates");
        assert_eq!(Screen::new(2, 0).size(), 1, "at least one item a screen");
    }

    #[test]
    fn the_last_screen_holds_the_remainder() {
        let screen = Screen::new(0, 50);
        assert_eq!(screen.last_index(0), 0);
        assert_eq!(screen.last_index(50), 0);
        assert_eq!(screen.last_index(51), 1);
        assert_eq!(screen.last_index(601), 12);
        assert!(!Screen::new(12, 50).is_past(601));
        assert!(Screen::new(13, 50).is_past(601));
        assert!(!Screen::new(0, 50).is_past(0));
    }

    #[test]
    fn an_item_is_on_the_screen_of_its_position() {
        assert_eq!(Screen::containing(0, 50), Screen::new(0, 50));
        assert_eq!(Screen::containing(49, 50), Screen::new(0, 50));
        assert_eq!(Screen::containing(50, 50), Screen::new(1, 50));
        assert_eq!(Screen::containing(600, 50).index(), 12);
    }
}
