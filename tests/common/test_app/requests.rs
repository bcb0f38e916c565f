//! The requests a test sends to a [`TestApp`]: any request, a page, one as a trusted proxy
//! names its user, and the deploy form as the browser's htmx posts it.

use repo_console::domain::repository::RepoId;

use super::TestApp;
use crate::web::{enc, Reply};

impl<W> TestApp<W> {
    pub async fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> Reply {
        self.client.send(method, path, headers, body).await
    }

    /// A request as a trusted proxy sends it: `user` and `groups` in its `X-Remote-User`
    /// and `X-Remote-Groups` headers, a form as htmx posts it.
    pub async fn send_as(
        &self,
        method: &str,
        path: &str,
        user: &str,
        groups: &str,
        body: &str,
    ) -> Reply {
        let headers = [
            ("content-type", "application/x-www-form-urlencoded"),
            ("hx-request", "true"),
            ("x-remote-user", user),
            ("x-remote-groups", groups),
        ];
        self.request(method, path, &headers, body).await
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.client.get(path).await
    }

    /// A form POST as the console's pages send it (htmx).
    pub async fn post(&self, path: &str, form: &str) -> Reply {
        self.client.post_htmx(path, form).await
    }

    /// A deploy as the browser's htmx sends it, without the `live` field.
    pub async fn deploy(&self, id: &RepoId, version: &str, confirm: &str) -> Reply {
        let form = format!("version={}&confirm={}", enc(version), enc(confirm));
        self.post_form(id, &form).await
    }

    /// A deploy that says what was live when its preview was shown.
    pub async fn deploy_seen(
        &self,
        id: &RepoId,
        version: &str,
        confirm: &str,
        live: &str,
    ) -> Reply {
        let form = format!(
            "version={}&confirm={}&live={}",
            enc(version),
            enc(confirm),
            enc(live)
        );
        self.post_form(id, &form).await
    }

    /// A deploy form posted as htmx does, with the given urlencoded body.
    pub async fn post_form(&self, id: &RepoId, body: &str) -> Reply {
        self.post(&format!("/repos/{id}/deploy"), body).await
    }
}
