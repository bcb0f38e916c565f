-- OIDC sign-in (issue 49): the signed-in sessions every replica knows, the sign-ins under way
-- (any replica may receive the provider's answer, once: taken by DELETE ... RETURNING), and the
-- audit of signing in and out. Keys are the SHA-256 (hex) of the cookies' values; no token is
-- kept.
CREATE TABLE IF NOT EXISTS console_sessions (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    groups JSONB NOT NULL,
    subject TEXT NOT NULL,
    started TIMESTAMPTZ NOT NULL,
    last_seen TIMESTAMPTZ NOT NULL
);

CREATE TABLE IF NOT EXISTS pending_sign_ins (
    key TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    nonce TEXT NOT NULL,
    pkce_verifier TEXT NOT NULL,
    return_to TEXT NOT NULL,
    started TIMESTAMPTZ NOT NULL
);

CREATE TABLE IF NOT EXISTS sign_in_audit (
    id BIGSERIAL PRIMARY KEY,
    at TIMESTAMPTZ NOT NULL,
    event TEXT NOT NULL,
    operator TEXT,
    groups JSONB NOT NULL,
    from_address TEXT,
    reason TEXT
);
