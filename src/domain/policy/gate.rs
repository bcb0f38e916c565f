//! Who may deploy where, and who may synchronize: subjects (a user, or a group the
//! authenticating proxy vouched for) listed per environment. A pure decision over the
//! operator the identity port names; without a list, every identified operator may.

use std::collections::BTreeMap;
use std::fmt;

use chrono::{DateTime, Utc};

use crate::domain::deploy::Refusal;
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::{
    CaseMatching, GroupName, InvalidName, MissingScope, Operator, PersonKey, PersonName, Scope,
};
use crate::domain::policy::checks::CheckPolicy;
use crate::domain::policy::metadata::MetadataPolicy;
use crate::domain::policy::{active, Freeze, FreezeWindow, SoakTime};

/// Someone a policy names: `user:<name>` (a person), `token:<name>` (an API token) or
/// `group:<name>` (a person's or a token's group), compared by the canonical key of the name
/// (as people and groups are), shown as written. A `user:` subject never names a token, nor
/// a `token:` subject a person.
#[derive(Debug, Clone)]
pub enum Subject {
    User { name: PersonName, key: PersonKey },
    Token { name: PersonName, key: PersonKey },
    Group(GroupName),
}

/// Why a text is not a subject.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a subject: write user:<name>, token:<name> or group:<name>{1}")]
pub struct InvalidSubject(pub String, pub String);

impl Subject {
    /// `text` under the default caseless matching.
    pub fn parse(text: &str) -> Result<Self, InvalidSubject> {
        Self::parse_with(text, CaseMatching::default())
    }

    /// `text`, its name compared with people's and groups' under `matching`; a name the
    /// identity rule does not admit is refused, saying why.
    pub fn parse_with(text: &str, matching: CaseMatching) -> Result<Self, InvalidSubject> {
        let invalid = |why: String| InvalidSubject(text.to_owned(), why);
        let because = |e: InvalidName| invalid(format!(" ({e})"));
        let (kind, name) = text.split_once(':').ok_or_else(|| invalid(String::new()))?;
        match kind.trim() {
            "user" => {
                let name = PersonName::admit(name, matching).map_err(because)?;
                Ok(Self::User {
                    key: name.key(matching),
                    name,
                })
            }
            "token" => {
                let name = PersonName::admit(name, matching).map_err(because)?;
                Ok(Self::Token {
                    key: PersonKey::of_token(&name.key(matching)),
                    name,
                })
            }
            "group" => GroupName::new(name, matching)
                .map(Self::Group)
                .map_err(because),
            _ => Err(invalid(String::new())),
        }
    }

    /// Whether `operator` is this subject (by the key of its name, a person's or a token's,
    /// or by one of its groups).
    pub fn admits(&self, operator: &Operator) -> bool {
        match self {
            Self::User { key, .. } | Self::Token { key, .. } => operator.key() == key,
            Self::Group(group) => operator.is_member_of(group),
        }
    }

    pub fn is_user(&self) -> bool {
        matches!(self, Self::User { .. })
    }

    /// The person's name of a `user:` subject.
    pub fn user_name(&self) -> Option<&PersonName> {
        match self {
            Self::User { name, .. } => Some(name),
            _ => None,
        }
    }

    /// What a subject is compared by: its kind, then its key.
    fn identity(&self) -> (u8, &str) {
        match self {
            Self::User { key, .. } => (0, key.as_str()),
            Self::Group(group) => (1, group.key()),
            Self::Token { key, .. } => (2, key.as_str()),
        }
    }
}

impl PartialEq for Subject {
    fn eq(&self, other: &Self) -> bool {
        self.identity() == other.identity()
    }
}

impl Eq for Subject {}

impl PartialOrd for Subject {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Subject {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.identity().cmp(&other.identity())
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::User { name, .. } => write!(f, "user:{name}"),
            Self::Token { name, .. } => write!(f, "token:{name}"),
            Self::Group(name) => write!(f, "group:{name}"),
        }
    }
}

/// Who may do one thing: everyone identified, or only the subjects listed (an empty list:
/// nobody).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Allowed {
    #[default]
    Everyone,
    Only(Vec<Subject>),
}

impl Allowed {
    fn admits(&self, operator: &Operator) -> bool {
        match self {
            Self::Everyone => true,
            Self::Only(subjects) => subjects.iter().any(|s| s.admits(operator)),
        }
    }
}

/// A refusal: by the policy's lists, or because an API token's scopes do not reach the
/// write (a write needs both).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Denied {
    #[error("{0}")]
    NotListed(NotListed),
    #[error("Not allowed: {0}.")]
    OutOfScope(MissingScope),
}

/// A refusal by the policy's lists: what was asked, who may, and who asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.text())]
pub struct NotListed {
    /// What was asked, e.g. "deploy to production" or "synchronize".
    pub action: String,
    /// Who may (empty: nobody).
    pub allowed: Vec<Subject>,
    /// Who asked, and their groups.
    pub operator: PersonName,
    pub groups: Vec<String>,
}

impl NotListed {
    fn text(&self) -> String {
        let who = if self.allowed.is_empty() {
            "nobody (the console's policy lists no one)".to_owned()
        } else {
            let names: Vec<String> = self.allowed.iter().map(Subject::to_string).collect();
            format!("only {}", names.join(", "))
        };
        let groups = if self.groups.is_empty() {
            "no groups".to_owned()
        } else {
            format!("groups {}", self.groups.join(", "))
        };
        format!(
            "Not allowed: {who} may {} ([policy] in the console's configuration); you are {} ({groups}).",
            self.action, self.operator
        )
    }
}

/// Who may deploy to (or roll back) each environment, and who may synchronize.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    deployers: BTreeMap<EnvironmentName, Allowed>,
    syncers: Allowed,
    /// When each environment takes no deploy.
    freezes: BTreeMap<EnvironmentName, Vec<FreezeWindow>>,
    /// Environments whose deploys need approvals, and by whom.
    approvals: BTreeMap<EnvironmentName, Approvals>,
    /// Who may deploy to each environment during a freeze (with a reason); none listed:
    /// nobody.
    overriders: BTreeMap<EnvironmentName, Vec<Subject>>,
    /// How long a version must have served in the environment before each one.
    soaks: BTreeMap<EnvironmentName, SoakTime>,
    /// Which checks a deploy to each environment needs, and where versions go by themselves.
    checks: CheckPolicy,
    /// Where unsigned metadata passes verification.
    metadata: MetadataPolicy,
    /// How the names of people and groups are compared (`identity.case_sensitive`); the
    /// subjects were parsed under it, and stored requesters are restored under it.
    matching: CaseMatching,
}

/// How many distinct approvers, other than the requester, a deploy needs, and who may
/// approve: at least one of each (no approvals needed is no entry at all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Approvals {
    needed: std::num::NonZeroU32,
    approvers: Vec<Subject>,
}

impl Approvals {
    /// `None` when `approvers` is empty: nobody could ever approve.
    pub fn new(needed: std::num::NonZeroU32, approvers: Vec<Subject>) -> Option<Self> {
        (!approvers.is_empty()).then_some(Self { needed, approvers })
    }

    pub fn needed(&self) -> u32 {
        self.needed.get()
    }

    pub fn approvers(&self) -> &[Subject] {
        &self.approvers
    }
}

impl Policy {
    /// `deployers` per environment (an environment not listed: everyone identified).
    pub fn new(deployers: BTreeMap<EnvironmentName, Allowed>, syncers: Allowed) -> Self {
        Self {
            deployers,
            syncers,
            freezes: BTreeMap::new(),
            approvals: BTreeMap::new(),
            overriders: BTreeMap::new(),
            soaks: BTreeMap::new(),
            checks: CheckPolicy::default(),
            metadata: MetadataPolicy::default(),
            matching: CaseMatching::default(),
        }
    }

    /// The same policy, with these required checks and automatic promotions.
    pub fn with_checks(mut self, checks: CheckPolicy) -> Self {
        self.checks = checks;
        self
    }

    /// Which checks a deploy to each environment needs, and where versions go by themselves.
    pub fn checks(&self) -> &CheckPolicy {
        &self.checks
    }

    /// The same policy, with this rule on unsigned metadata.
    pub fn with_metadata(mut self, metadata: MetadataPolicy) -> Self {
        self.metadata = metadata;
        self
    }

    /// Where unsigned metadata passes verification.
    pub fn metadata(&self) -> &MetadataPolicy {
        &self.metadata
    }

    /// The same policy, whose subjects were parsed under `matching`.
    pub fn with_matching(mut self, matching: CaseMatching) -> Self {
        self.matching = matching;
        self
    }

    /// Every subject the policy names, each with the configuration key that lists it
    /// (`policy.syncers`, `policy.<environment>.deployers`, `.approvers`, `.override`).
    pub fn subjects(&self) -> Vec<(String, &Subject)> {
        fn listed(key: String, allowed: &Allowed) -> Vec<(String, &Subject)> {
            match allowed {
                Allowed::Everyone => Vec::new(),
                Allowed::Only(subjects) => subjects.iter().map(|s| (key.clone(), s)).collect(),
            }
        }
        let mut subjects = listed("policy.syncers".to_owned(), &self.syncers);
        for (environment, allowed) in &self.deployers {
            subjects.extend(listed(format!("policy.{environment}.deployers"), allowed));
        }
        for (environment, approvals) in &self.approvals {
            let key = format!("policy.{environment}.approvers");
            subjects.extend(approvals.approvers.iter().map(|s| (key.clone(), s)));
        }
        for (environment, overriders) in &self.overriders {
            let key = format!("policy.{environment}.override");
            subjects.extend(overriders.iter().map(|s| (key.clone(), s)));
        }
        subjects
    }

    /// How the names of people and groups are compared.
    pub fn matching(&self) -> CaseMatching {
        self.matching
    }

    /// The same policy, where deploys to these environments need approvals.
    pub fn with_approvals(mut self, approvals: BTreeMap<EnvironmentName, Approvals>) -> Self {
        self.approvals = approvals;
        self
    }

    /// The same policy, with who may deploy through each environment's freeze.
    pub fn with_overriders(mut self, overriders: BTreeMap<EnvironmentName, Vec<Subject>>) -> Self {
        self.overriders = overriders;
        self
    }

    /// The same policy, with the soak time of each environment that has one.
    pub fn with_soaks(mut self, soaks: BTreeMap<EnvironmentName, SoakTime>) -> Self {
        self.soaks = soaks;
        self
    }

    /// How long a version must have served in the environment before `environment`.
    pub fn soak_of(&self, environment: &EnvironmentName) -> Option<SoakTime> {
        self.soaks.get(environment).copied()
    }

    /// How many approvals a deploy to `environment` needs (0: it runs at once).
    pub fn approvals_needed(&self, environment: &EnvironmentName) -> u32 {
        self.approvals.get(environment).map_or(0, Approvals::needed)
    }

    /// Whether `operator` may approve (or reject) requests to deploy to `environment`.
    pub fn may_approve(
        &self,
        environment: &EnvironmentName,
        operator: &Operator,
    ) -> Result<(), Denied> {
        let allowed = match self.approvals.get(environment) {
            Some(approvals) => Allowed::Only(approvals.approvers.clone()),
            None => Allowed::Only(Vec::new()),
        };
        check(&allowed, operator, Scope::approve_for(environment), || {
            format!("approve deploys to {environment}")
        })
    }

    /// Whether `operator` may deploy to `environment` through its freeze (`override`).
    pub fn may_override(
        &self,
        environment: &EnvironmentName,
        operator: &Operator,
    ) -> Result<(), Denied> {
        let allowed = Allowed::Only(
            self.overriders
                .get(environment)
                .cloned()
                .unwrap_or_default(),
        );
        check(&allowed, operator, Scope::deploy_to(environment), || {
            format!("deploy to {environment} during its freeze")
        })
    }

    /// When a deploy of `operator` to `environment` may go ahead at `now`: who, then when
    /// (a freeze refuses it unless the operator asks to override it, is listed in
    /// `override`, and gives a reason).
    pub fn gate(
        &self,
        environment: &EnvironmentName,
        operator: &Operator,
        now: DateTime<Utc>,
        overriding: Option<&str>,
    ) -> Result<Gate, GateRefusal> {
        self.may_deploy(environment, operator)
            .map_err(GateRefusal::NotAllowed)?;
        let Some(freeze) = self.freeze_at(environment, now) else {
            return Ok(Gate::Open);
        };
        let may_override = self.may_override(environment, operator).is_ok();
        match overriding {
            Some(reason) if may_override && !reason.trim().is_empty() => {
                Ok(Gate::ThroughFreeze(freeze))
            }
            Some(_) if may_override => Err(GateRefusal::OverrideWithoutReason(freeze)),
            _ => Err(GateRefusal::Frozen {
                freeze,
                may_override,
            }),
        }
    }

    /// The same policy, with these freeze windows per environment.
    pub fn with_freezes(mut self, freezes: BTreeMap<EnvironmentName, Vec<FreezeWindow>>) -> Self {
        self.freezes = freezes;
        self
    }

    /// The freeze `environment` is in at `now`, if any (see [`active`]).
    pub fn freeze_at(&self, environment: &EnvironmentName, now: DateTime<Utc>) -> Option<Freeze> {
        active(self.freezes.get(environment)?, now)
    }

    /// Whether `operator` may deploy to, or roll back, `environment`.
    pub fn may_deploy(
        &self,
        environment: &EnvironmentName,
        operator: &Operator,
    ) -> Result<(), Denied> {
        let allowed = self
            .deployers
            .get(environment)
            .unwrap_or(&Allowed::Everyone);
        check(allowed, operator, Scope::deploy_to(environment), || {
            format!("deploy to {environment}")
        })
    }

    /// Whether `operator` may synchronize a repository.
    pub fn may_sync(&self, operator: &Operator) -> Result<(), Denied> {
        check(&self.syncers, operator, Scope::Sync, || {
            "synchronize".to_owned()
        })
    }
}

/// A deploy the policy lets through now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gate {
    Open,
    /// The environment is frozen; the operator overrides the freeze (audited).
    ThroughFreeze(Freeze),
}

/// Why the policy refuses a deploy now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GateRefusal {
    NotAllowed(Denied),
    /// Frozen; `may_override` says whether this operator could override it with a reason.
    Frozen {
        freeze: Freeze,
        may_override: bool,
    },
    /// An override asked for without its reason.
    OverrideWithoutReason(Freeze),
}

impl GateRefusal {
    /// The refusal as a deploy to `environment` reports it.
    pub fn into_refusal(self, environment: &EnvironmentName) -> Refusal {
        match self {
            Self::NotAllowed(denied) => Refusal::NotAllowed(denied.to_string()),
            Self::Frozen {
                freeze,
                may_override,
            } => Refusal::Frozen {
                environment: environment.clone(),
                until: format!("{} (freeze window {})", freeze.until, freeze.window),
                may_override,
            },
            Self::OverrideWithoutReason(_) => Refusal::OverrideReasonMissing(environment.clone()),
        }
    }
}

/// Whether `operator` holds the `needed` scope (a token) and is `allowed` (everyone).
fn check(
    allowed: &Allowed,
    operator: &Operator,
    needed: Scope,
    action: impl FnOnce() -> String,
) -> Result<(), Denied> {
    operator.holds(&needed).map_err(Denied::OutOfScope)?;
    if allowed.admits(operator) {
        return Ok(());
    }
    Err(Denied::NotListed(NotListed {
        action: action(),
        allowed: match allowed {
            Allowed::Everyone => Vec::new(),
            Allowed::Only(subjects) => subjects.clone(),
        },
        operator: operator.name().clone(),
        groups: operator.groups(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(name: &str, groups: &[&str]) -> Operator {
        Operator::new(name)
            .unwrap()
            .with_groups(groups.iter().map(|g| (*g).to_owned()).collect())
    }

    fn production() -> EnvironmentName {
        EnvironmentName::production()
    }

    fn policy() -> Policy {
        let only = |texts: &[&str]| {
            Allowed::Only(texts.iter().map(|t| Subject::parse(t).unwrap()).collect())
        };
        Policy::new(
            BTreeMap::from([(production(), only(&["group:release", "user:alice"]))]),
            only(&["group:ops"]),
        )
    }

    #[test]
    fn subjects_are_a_user_or_a_group() {
        assert_eq!(
            Subject::parse("user:alice"),
            Ok(Subject::parse("user: alice").unwrap())
        );
        assert_eq!(
            Subject::parse("group:release"),
            Ok(Subject::parse("group:Release").unwrap())
        );
        for bad in ["alice", "team:x", "user:", "group: ", ":x", ""] {
            assert!(Subject::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            Subject::parse("group:release").unwrap().to_string(),
            "group:release"
        );
    }

    #[test]
    fn listed_users_and_members_of_listed_groups_may_deploy_there() {
        let policy = policy();
        assert!(policy.may_deploy(&production(), &op("alice", &[])).is_ok());
        assert!(policy
            .may_deploy(&production(), &op("bob", &["dev", "release"]))
            .is_ok());
        let denied = policy
            .may_deploy(&production(), &op("carol", &["dev"]))
            .unwrap_err();
        assert_eq!(
            denied.to_string(),
            "Not allowed: only group:release, user:alice may deploy to production ([policy] in the \
             console's configuration); you are carol (groups dev)."
        );
        let staging = EnvironmentName::parse("staging").unwrap();
        assert!(
            policy.may_deploy(&staging, &op("carol", &[])).is_ok(),
            "an environment without deployers: everyone identified"
        );
    }

    #[test]
    fn a_group_name_is_not_a_user_name() {
        let policy = policy();
        assert!(policy
            .may_deploy(&production(), &op("release", &[]))
            .is_err());
        assert!(policy
            .may_deploy(&production(), &op("dave", &["alice"]))
            .is_err());
    }

    /// Issue 43: `user:` names people, `token:` tokens; a token's groups match `group:`.
    #[test]
    fn tokens_and_people_are_named_apart() {
        let token = |name: &str, groups: &[&str]| {
            op(name, groups).as_token(vec![Scope::deploy_to(&production())], None)
        };
        let listed = |texts: &[&str]| {
            Policy::new(
                BTreeMap::from([(
                    production(),
                    Allowed::Only(texts.iter().map(|t| Subject::parse(t).unwrap()).collect()),
                )]),
                Allowed::Everyone,
            )
        };
        let by_user = listed(&["user:ci"]);
        assert!(by_user
            .may_deploy(&production(), &token("ci", &[]))
            .is_err());
        assert!(by_user.may_deploy(&production(), &op("CI", &[])).is_ok());
        let by_token = listed(&["token:ci"]);
        assert!(by_token
            .may_deploy(&production(), &token("ci", &[]))
            .is_ok());
        assert!(by_token
            .may_deploy(&production(), &token("ＣＩ", &[]))
            .is_ok());
        assert!(by_token.may_deploy(&production(), &op("ci", &[])).is_err());
        let by_group = listed(&["group:release"]);
        assert!(by_group
            .may_deploy(&production(), &token("ci", &["release"]))
            .is_ok());
        assert_eq!(Subject::parse("token:CI").unwrap().to_string(), "token:CI");
        assert_ne!(Subject::parse("token:ci"), Subject::parse("user:ci"));
        let refused = Subject::parse("user:ali\u{00AD}ce")
            .unwrap_err()
            .to_string();
        assert!(refused.contains("U+00AD (soft hyphen)"), "{refused}");
    }

    #[test]
    fn an_environment_is_frozen_only_within_its_own_windows() {
        let window = FreezeWindow::interval("2026-12-20T00:00:00Z/2027-01-04T00:00:00Z").unwrap();
        let policy = policy().with_freezes(BTreeMap::from([(production(), vec![window])]));
        let at = |t: &str| DateTime::parse_from_rfc3339(t).unwrap().with_timezone(&Utc);
        let frozen = policy
            .freeze_at(&production(), at("2026-12-24T12:00:00Z"))
            .unwrap();
        assert_eq!(frozen.until.instant(), at("2027-01-04T00:00:00Z"));
        assert!(policy
            .freeze_at(&production(), at("2027-01-04T00:00:00Z"))
            .is_none());
        let staging = EnvironmentName::parse("staging").unwrap();
        assert!(policy
            .freeze_at(&staging, at("2026-12-24T12:00:00Z"))
            .is_none());
    }

    #[test]
    fn syncers_and_an_empty_list() {
        let policy = policy();
        assert!(policy.may_sync(&op("erin", &["ops"])).is_ok());
        assert!(policy.may_sync(&op("alice", &[])).is_err());
        let nobody = Policy::new(BTreeMap::new(), Allowed::Only(Vec::new()));
        let denied = nobody.may_sync(&op("alice", &["ops"])).unwrap_err();
        assert!(denied.to_string().contains("nobody"), "{denied}");
        assert!(Policy::default().may_sync(&op("anyone", &[])).is_ok());
    }
}
