//! Pins: what a rollback leaves behind (`domain::pin`), kept in the pin store beside the
//! approval requests so that every replica holds the same environments. This room reads the
//! pins (the gate's question, the versions page's and the API's), keeps what happens to them
//! (set, lifted, a move held back) with their events (`pin.set`, `pin.lifted`), and unpins
//! ([`unpin`]). The promotion pipeline asks here (`app::promotion::pin_gate`): every way a
//! version moves meets the pin.

pub mod keep;
pub mod unpin;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::domain::environment::EnvironmentName;
use crate::domain::pin::{standing, Pin, PinKey, PinRecord};
use crate::domain::repository::RepoId;
use crate::ports::{PinStore, PinStoreError};

use crate::app::parts::StatePart;
use crate::app::state::AppState;

/// Where the pins are kept: given by the composition root (beside the requests); a state
/// built without it (a tool, a test that does not ask) keeps no pin, and nothing is pinned.
pub struct Pins {
    store: Arc<dyn PinStore>,
}

impl StatePart for Pins {}

impl Pins {
    pub fn new(store: Arc<dyn PinStore>) -> Self {
        Self { store }
    }

    pub fn store(&self) -> &dyn PinStore {
        self.store.as_ref()
    }
}

impl AppState {
    /// Where the pins are kept, when the state keeps any.
    pub fn pins(&self) -> Option<Arc<Pins>> {
        self.given()
    }
}

/// The pin that holds on `repo` in `environment` now (`None`: none, or no pin store).
pub async fn holding(
    state: &AppState,
    repo: &RepoId,
    environment: &EnvironmentName,
) -> Result<Option<Pin>, PinStoreError> {
    let Some(pins) = state.pins() else {
        return Ok(None);
    };
    let key = PinKey::new(repo.clone(), environment.clone());
    pins.store().standing(&key).await
}

/// What the pins of one repository are: the pin holding in each pinned environment, and
/// each environment's records (its history, oldest first).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RepositoryPins {
    pub holding: BTreeMap<EnvironmentName, Pin>,
    pub history: BTreeMap<EnvironmentName, Vec<PinRecord>>,
}

impl RepositoryPins {
    /// The pin holding in `environment`, if one does.
    pub fn of(&self, environment: &EnvironmentName) -> Option<&Pin> {
        self.holding.get(environment)
    }

    /// How many moves the pin holding in `environment` held back since it was set.
    pub fn held_back(&self, environment: &EnvironmentName) -> usize {
        let Some(pin) = self.of(environment) else {
            return 0;
        };
        let records = self.history.get(environment).map_or(&[][..], Vec::as_slice);
        records
            .iter()
            .filter(|r| matches!(r, PinRecord::Held(_)) && r.at() >= pin.at)
            .count()
    }
}

/// The pins of repository `repo`, in every environment.
pub async fn of_repository(
    state: &AppState,
    repo: &RepoId,
) -> Result<RepositoryPins, PinStoreError> {
    let Some(pins) = state.pins() else {
        return Ok(RepositoryPins::default());
    };
    let records = pins.store().of_repository(repo).await?;
    let mut shown = RepositoryPins::default();
    for record in &records {
        let environment = record.key().environment;
        shown
            .history
            .entry(environment)
            .or_default()
            .push(record.clone());
    }
    for environment in shown.history.keys() {
        let key = PinKey::new(repo.clone(), environment.clone());
        if let Some(pin) = standing(&key, &records) {
            shown.holding.insert(environment.clone(), pin);
        }
    }
    Ok(shown)
}
