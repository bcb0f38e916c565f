//! `SessionCookie`: the [`OperatorIdentity`] of `[identity] mode = "oidc"`: who a request
//! is, from the session its cookie names (the application's [`SignIn::who`]: lifetimes
//! enforced, the same PRECIS keys and groups as at sign-in).

use async_trait::async_trait;

use crate::app::sign_in::SignIn;
use crate::domain::identity::Operator;
use crate::ports::{IdentityContext, OperatorIdentity, Unidentified};

pub struct SessionCookie {
    sign_in: SignIn,
}

impl SessionCookie {
    pub fn new(sign_in: SignIn) -> Self {
        Self { sign_in }
    }
}

/// The value of cookie `name` in the request's `Cookie` headers (the first, when a
/// browser sent several: with the `__Host-` prefix no other site can have set one).
pub fn cookie_value(context: &IdentityContext, name: &str) -> Option<String> {
    context
        .header_values("cookie")
        .filter_map(|value| std::str::from_utf8(value).ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}

#[async_trait]
impl OperatorIdentity for SessionCookie {
    async fn identify(&self, context: &IdentityContext) -> Result<Operator, Unidentified> {
        let name = self.sign_in.cookies.session_name();
        let cookie = cookie_value(context, name);
        self.sign_in.who(cookie.as_deref(), context.peer).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_named_cookie_is_found_among_others_and_across_headers() {
        let context = IdentityContext::default()
            .with_header("cookie", "theme=dark; rc-session=abc")
            .with_header("cookie", "other=1");
        assert_eq!(cookie_value(&context, "rc-session").as_deref(), Some("abc"));
        assert_eq!(cookie_value(&context, "session"), None, "names match whole");
        let empty = IdentityContext::default().with_header("cookie", "rc-session=");
        assert_eq!(cookie_value(&empty, "rc-session"), None);
    }
}
