//! Keeping what happens to a pin, then telling it: a rollback's pin set (`pin.set`), a pin
//! lifted by a person's deploy or an unpin (`pin.lifted`), a move held back (no event: the
//! refusal is the caller's answer, and a schedule's end has its own event). The record is
//! kept first; the event follows only once it is durable.

use crate::domain::event::EventData;
use crate::domain::pin::{Hold, Lift, Pin, PinRecord};
use crate::ports::PinStoreError;

use crate::app::events;
use crate::app::state::AppState;

/// Keeps `pin` (replacing one that held) and tells `pin.set`.
pub async fn set(state: &AppState, pin: Pin) -> Result<(), PinStoreError> {
    append(state, &PinRecord::Set(pin.clone())).await?;
    tracing::info!(repository = %pin.repository_name, environment = %pin.environment, version = pin.version.get(), set_by = %pin.set_by, "pinned by a rollback");
    events::emit(state, EventData::PinSet(pin)).await;
    Ok(())
}

/// Keeps `lift` and tells `pin.lifted`.
pub async fn lift(state: &AppState, lift: Lift) -> Result<(), PinStoreError> {
    append(state, &PinRecord::Lifted(lift.clone())).await?;
    tracing::info!(repository = %lift.repository_name, environment = %lift.environment, by = %lift.by, "pin lifted");
    events::emit(state, EventData::PinLifted(lift)).await;
    Ok(())
}

/// Keeps that a pin held `hold` back.
pub async fn held(state: &AppState, hold: Hold) -> Result<(), PinStoreError> {
    append(state, &PinRecord::Held(hold)).await
}

async fn append(state: &AppState, record: &PinRecord) -> Result<(), PinStoreError> {
    match state.pins() {
        Some(pins) => pins.store().append(record).await,
        None => Ok(()),
    }
}
