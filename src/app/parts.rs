//! A feature's own part of the application state (its lock table, its caches, its queue):
//! declared in the feature's room by implementing [`StatePart`], kept in [`AppState`] by type,
//! so that the state names no feature and every feature reaches the state downward.
//!
//! A part with a `Default` is made on first use ([`AppState::part`]); a part the composition
//! root configures is given to the builder ([`AppStateBuilder::part`]) and read with
//! [`AppState::given`], which is `None` until it was given. Adding a feature's state is its
//! type, one `impl StatePart`, and (when it is configured) one line in the composition root.
//!
//! [`AppState`]: super::state::AppState
//! [`AppState::part`]: super::state::AppState::part
//! [`AppState::given`]: super::state::AppState::given
//! [`AppStateBuilder::part`]: super::state::AppStateBuilder::part

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// A feature's part of the application state, shared by every clone of the state.
pub trait StatePart: Send + Sync + 'static {
    /// Whether a state rebuilt from this one ([`super::state::AppState::rebuild`]) starts
    /// this part anew (locks, running work, caches bound to the old upstream) instead of
    /// sharing it (stores, outboxes, limits).
    const ANEW_ON_REBUILD: bool = false;
}

/// One part, and whether a rebuilt state starts it anew.
#[derive(Clone)]
struct Held {
    part: Arc<dyn Any + Send + Sync>,
    anew_on_rebuild: bool,
}

/// The parts of one state, by type.
#[derive(Clone, Default)]
pub(crate) struct Parts(Arc<RwLock<HashMap<TypeId, Held>>>);

impl Parts {
    /// The part of type `T`, made from its `Default` when this state has none yet.
    pub(crate) fn get_or_default<T: StatePart + Default>(&self) -> Arc<T> {
        if let Some(part) = self.get::<T>() {
            return part;
        }
        let mut parts = self.0.write().expect("state parts lock");
        let held = parts.entry(TypeId::of::<T>()).or_insert_with(|| Held {
            part: Arc::new(T::default()),
            anew_on_rebuild: T::ANEW_ON_REBUILD,
        });
        downcast(&held.part)
    }

    /// The part of type `T`, when this state has one.
    pub(crate) fn get<T: StatePart>(&self) -> Option<Arc<T>> {
        let parts = self.0.read().expect("state parts lock");
        parts
            .get(&TypeId::of::<T>())
            .map(|held| downcast(&held.part))
    }

    /// Gives this state `part` (replacing one of its type).
    pub(crate) fn set<T: StatePart>(&self, part: T) {
        let held = Held {
            part: Arc::new(part),
            anew_on_rebuild: T::ANEW_ON_REBUILD,
        };
        let mut parts = self.0.write().expect("state parts lock");
        parts.insert(TypeId::of::<T>(), held);
    }

    /// The parts a rebuilt state shares with this one (its own, not this one's map).
    pub(crate) fn for_rebuild(&self) -> Self {
        let parts = self.0.read().expect("state parts lock");
        let kept = parts
            .iter()
            .filter(|(_, held)| !held.anew_on_rebuild)
            .map(|(id, held)| (*id, held.clone()))
            .collect();
        Self(Arc::new(RwLock::new(kept)))
    }
}

fn downcast<T: StatePart>(part: &Arc<dyn Any + Send + Sync>) -> Arc<T> {
    part.clone()
        .downcast::<T>()
        .unwrap_or_else(|_| unreachable!("a part is kept under its own type's id"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[derive(Default)]
    struct Counter(AtomicUsize);
    impl StatePart for Counter {}

    #[derive(Default)]
    struct Cache(AtomicUsize);
    impl StatePart for Cache {
        const ANEW_ON_REBUILD: bool = true;
    }

    struct Configured(&'static str);
    impl StatePart for Configured {}

    #[test]
    fn a_default_part_is_made_once_and_shared_by_clones() {
        let parts = Parts::default();
        parts
            .get_or_default::<Counter>()
            .0
            .fetch_add(1, Ordering::SeqCst);
        let clone = parts.clone();
        clone
            .get_or_default::<Counter>()
            .0
            .fetch_add(1, Ordering::SeqCst);
        assert_eq!(
            parts.get_or_default::<Counter>().0.load(Ordering::SeqCst),
            2
        );
    }

    #[test]
    fn a_configured_part_is_absent_until_given() {
        let parts = Parts::default();
        assert!(parts.get::<Configured>().is_none());
        parts.set(Configured("outbox"));
        assert_eq!(parts.get::<Configured>().unwrap().0, "outbox");
    }

    #[test]
    fn a_rebuilt_state_shares_kept_parts_and_starts_the_others_anew() {
        let parts = Parts::default();
        parts
            .get_or_default::<Counter>()
            .0
            .fetch_add(1, Ordering::SeqCst);
        parts
            .get_or_default::<Cache>()
            .0
            .fetch_add(1, Ordering::SeqCst);
        let rebuilt = parts.for_rebuild();
        assert_eq!(
            rebuilt.get_or_default::<Counter>().0.load(Ordering::SeqCst),
            1
        );
        assert_eq!(
            rebuilt.get_or_default::<Cache>().0.load(Ordering::SeqCst),
            0
        );
        rebuilt.set(Configured("new"));
        assert!(
            parts.get::<Configured>().is_none(),
            "the rebuilt map is its own"
        );
    }
}
