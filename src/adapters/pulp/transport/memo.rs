//! `Memo`: upstream facts that do not change once they exist (a publication's version, a
//! user's name), remembered so that each is asked for once, at most `capacity` of them (the
//! least recently used go first: a console running for months stays small).

use std::collections::HashSet;
use std::hash::Hash;
use std::num::NonZeroUsize;
use std::sync::Mutex;

use lru::LruCache;

pub(crate) struct Memo<K: Hash + Eq, V>(Mutex<LruCache<K, V>>);

impl<K: Hash + Eq + Clone, V: Clone> Memo<K, V> {
    pub fn new(capacity: NonZeroUsize) -> Self {
        Self(Mutex::new(LruCache::new(capacity)))
    }

    pub fn get(&self, key: &K) -> Option<V> {
        self.lock().get(key).cloned()
    }

    pub fn remember(&self, key: K, value: V) {
        self.lock().put(key, value);
    }

    /// The values known for `keys` and the keys not known, each key once (in order).
    pub fn split(&self, keys: impl IntoIterator<Item = K>) -> (Vec<V>, Vec<K>) {
        let mut memo = self.lock();
        let mut seen = HashSet::new();
        let (mut known, mut missing) = (Vec::new(), Vec::new());
        for key in keys.into_iter().filter(|k| seen.insert(k.clone())) {
            match memo.get(&key) {
                Some(value) => known.push(value.clone()),
                None => missing.push(key),
            }
        }
        (known, missing)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LruCache<K, V>> {
        // A panic while holding the lock leaves a consistent map: keep using it.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_and_missing_are_told_apart_and_the_oldest_goes_first() {
        let memo: Memo<u8, &str> = Memo::new(NonZeroUsize::new(2).unwrap());
        memo.remember(1, "one");
        memo.remember(2, "two");
        assert_eq!(memo.split([2, 3, 2, 3]), (vec!["two"], vec![3]));
        memo.remember(3, "three");
        assert_eq!(memo.get(&1), None, "the least recently used is forgotten");
        assert_eq!(memo.get(&2), Some("two"));
    }
}
