//! What changes between two versions: the compare page and the confirm step's diff
//! ([`compare`]), read by the cheapest plan ([`read`]), shared between concurrent callers
//! ([`flights`]), cached in memory ([`cache`]) and in the diff store ([`known`]), and computed
//! ahead in the background ([`ahead`], [`queue`]).

pub mod ahead;
pub mod cache;
pub mod compare;
pub(crate) mod flights;
pub mod known;
pub(crate) mod queue;
pub mod read;
