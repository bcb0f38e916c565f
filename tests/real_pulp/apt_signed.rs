//! Issue 46: a signed Debian repository deployed by the console, with apt as the client and no
//! `[trusted=yes]`. The repository `rcdeb3-signed` (made anew at each run, versions as
//! `apt.rs` makes them) has pulp_deb's signing service `rc-apt-signer`
//! (scripts/pulp/signing_service.sh), set after v1 was published: the distributions
//! `rcdeb3-signed-testing` and `-staging` first serve v1's unsigned publication, which apt
//! refuses with `signed-by=` the signer's public key. The console calls the repository
//! verified under the default policy (unsigned metadata refused), on its versions page and in
//! the API, and deploys it there; after each deploy apt, with `signed-by=<the public key>`
//! (`$PULP_HOME/etc/rc-apt-signer.asc`), accepts the distribution and `apt-cache policy` shows
//! the version the confirm step announced. Needs the real Pulp with pulp_deb and its signing
//! service, dpkg-deb and apt.

use std::path::Path;
use std::sync::Arc;

use super::apt::{
    deploy_as_announced, distribution_base_url, environment_path, make_repository, uploaded, Apt,
    Trust,
};
use super::console::{attr, over_upstream, select, text};
use super::support::{exclusive, required_pulp, required_pulp_home};
use crate::host_tools::required;
use crate::needs::missing;

const REPO: &str = "rcdeb3-signed";
/// pulp_deb's signing service of the tests' Pulp (scripts/pulp/signing_service.sh).
const SIGNER: &str = "rc-apt-signer";

#[tokio::test]
#[ignore = "needs a real Pulp with pulp_deb and its signing service rc-apt-signer, dpkg-deb and apt"]
async fn a_signed_debian_repository_is_verified_deployed_and_accepted_by_apt_with_its_key() {
    let dpkg_deb = required("dpkg-deb", "dpkg");
    let apt = Apt::required();
    let pulp = required_pulp();
    let key = required_pulp_home().join(format!("etc/{SIGNER}.asc"));
    if !Path::new(&key).is_file() {
        missing(
            "the public key of rc-apt-signer",
            &format!(
                "{} is missing: scripts/pulp/start.sh writes it (scripts/pulp/signing_service.sh)",
                key.display()
            ),
        );
    }
    let signer = pulp
        .href_named("signing-services/", SIGNER)
        .unwrap_or_else(|| {
            missing(
                "pulp_deb's signing service rc-apt-signer",
                "not in this Pulp: scripts/pulp/start.sh adds it (scripts/pulp/signing_service.sh)",
            )
        });
    let _held = exclusive(REPO).await;
    let packages = uploaded(&pulp, &dpkg_deb);
    let id = make_repository(
        &pulp,
        REPO,
        &["testing", "staging"],
        &packages,
        Some(&signer),
    );
    let signed_by = Trust::SignedBy(&key);

    // v1's publication was made before the signing service was set: apt, trusting only the
    // key, refuses it. This is what makes the accepted reads below mean something.
    let unsigned = apt.reads(
        &distribution_base_url(&pulp, &format!("{REPO}-testing")),
        &signed_by,
    );
    assert!(
        unsigned
            .as_ref()
            .is_err_and(|said| said.contains("is not signed")),
        "apt with signed-by only refuses an unsigned publication: {unsigned:?}"
    );

    // The default policy refuses unsigned metadata; a signed repository passes it.
    let console = over_upstream(Arc::new(pulp.client()), 500)
        .environments(environment_path())
        .spawn()
        .await;
    let api = console.get(&format!("/api/v1/repositories/{id}")).await;
    assert_eq!(api.status, 200, "{}", api.body);
    let detail: serde_json::Value = serde_json::from_str(&api.body).expect("JSON");
    assert_eq!(detail["content_type"], "deb", "{detail}");
    assert_eq!(detail["verification"]["badge"], "verified", "{detail}");
    assert_eq!(detail["verification"]["metadata"], "checked", "{detail}");
    assert_eq!(detail["verification"]["metadata_signed"], true, "{detail}");
    let page = console.get(&format!("/repos/{id}/versions")).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let html = page.html();
    let badge = select(&html, "#verification [data-badge]");
    assert_eq!(badge.len(), 1, "one badge in the verification detail");
    assert_eq!(attr(&badge[0], "data-badge"), "verified");
    // apt's one condition: the Release files signed, not dnf's three settings.
    let checks = select(&html, "#verification [data-check]");
    assert_eq!(checks.len(), 1, "one condition for a Debian repository");
    assert_eq!(
        (
            attr(&checks[0], "data-check"),
            attr(&checks[0], "data-metadata")
        ),
        ("metadata", "checked")
    );
    assert!(
        text(&checks[0]).contains("signed by the repository's signing service"),
        "{}",
        text(&checks[0])
    );
    assert!(
        select(&html, "[data-warning=unsigned-metadata]").is_empty(),
        "no warning that apt refuses the metadata"
    );

    // (environment, version, the change kind the confirm step must announce)
    let steps = [
        ("testing", 2, "upgraded"),   // 2.0~rc1-1 -> 2.0-1
        ("testing", 4, "upgraded"),   // 2.0-1 -> 1:0.9-1: the epoch wins
        ("staging", 4, "upgraded"),   // the promotion of v4
        ("testing", 3, "downgraded"), // 1:0.9-1 -> 2.0-1, 2.0-1+b1
    ];
    for step in steps {
        deploy_as_announced(&console, &pulp, &apt, &id, REPO, step, &signed_by).await;
    }
}
