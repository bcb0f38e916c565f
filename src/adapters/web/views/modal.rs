//! The console's modal dialog shell, for a dialog that only says something (why a preview,
//! a deploy or a promotion is not possible; an error answered to htmx inside the modal).

use maud::{html, Markup};

/// A modal that only says why the preview is not possible.
pub fn message_modal(title: &str, message: Markup) -> Markup {
    html! {
        div.modal-backdrop {
            div.modal id="deploy-modal" role="dialog" aria-modal="true" aria-labelledby="deploy-title" data-confirm="" {
                h2 id="deploy-title" { (title) }
                (message)
                div.modal-actions { button.ghost type="button" data-modal-cancel { "Close" } }
            }
        }
    }
}
