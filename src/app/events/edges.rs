//! The edges' events (`edge.behind`, `edge.failed`, `edge.drift`) go to the webhooks' outbox
//! like every other: the edges' room, below this one, decides what to tell
//! ([`crate::app::edges::tell`]); this is where it is recorded.

use futures::future::{BoxFuture, FutureExt};

use crate::app::edges::EdgeNews;
use crate::domain::event::EventData;

use super::{keep, Events};

impl EdgeNews for Events {
    fn tell(&self, data: EventData) -> BoxFuture<'static, ()> {
        let events = self.clone();
        async move {
            keep(&events, data).await;
        }
        .boxed()
    }
}
