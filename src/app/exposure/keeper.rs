//! Where the CVE index lives in the process: in memory behind one lock (questions wait for one
//! another there, see [`super::index`]), and in its store when it has one.

use std::sync::Arc;

use tokio::sync::{Mutex, MutexGuard};

use crate::app::parts::StatePart;
use crate::app::state::{AppState, AppStateBuilder};
use crate::domain::exposure::CveIndex;
use crate::ports::CveIndexStore;

/// The index in memory, and where it is kept (cheap to clone).
#[derive(Clone, Default)]
pub struct CveIndexKeeper {
    index: Arc<Mutex<Option<CveIndex>>>,
    store: Option<Arc<dyn CveIndexStore>>,
}

impl CveIndexKeeper {
    /// An index kept in `store` too.
    pub fn kept_in(store: Arc<dyn CveIndexStore>) -> Self {
        Self {
            index: Arc::default(),
            store: Some(store),
        }
    }

    /// Where the index is kept, in words (none: memory only).
    pub fn target(&self) -> Option<String> {
        self.store.as_ref().map(|s| s.target())
    }

    /// The index in memory (`None` until first loaded or built), held until dropped.
    pub async fn lock(&self) -> MutexGuard<'_, Option<CveIndex>> {
        self.index.lock().await
    }

    /// The index as last saved in the store (none: no store, none saved, or unreadable).
    pub async fn load(&self) -> Option<CveIndex> {
        let store = self.store.as_ref()?;
        match store.load().await {
            Ok(found) => found,
            Err(error) => {
                tracing::warn!(%error, "the CVE index is built again from Pulp");
                None
            }
        }
    }

    /// Saves `index` in the store (a failure is logged: the index is in memory still).
    pub async fn save(&self, index: &CveIndex) {
        if let Some(store) = &self.store {
            if let Err(error) = store.save(index).await {
                tracing::warn!(%error, "the CVE index is kept in memory only until the next refresh");
            }
        }
    }
}

/// In memory unless the composition root gives one kept in a store.
impl StatePart for CveIndexKeeper {}

impl AppState {
    /// The CVE index of the exposure (in memory, and in its store when it has one).
    pub(crate) fn cve_index(&self) -> Arc<CveIndexKeeper> {
        self.part()
    }
}

impl AppStateBuilder {
    /// The CVE index is kept in `store` too, and read back from it (after a restart, or by
    /// the other replicas).
    pub fn cve_index_store(self, store: Arc<dyn CveIndexStore>) -> Self {
        self.part(CveIndexKeeper::kept_in(store))
    }
}
