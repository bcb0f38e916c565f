//! Why a release promotion is refused before anything moves. A member's own refusal (the
//! refusals of a single deploy) is named with the member it is about.

use crate::domain::deploy::Refusal;
use crate::domain::environment::EnvironmentName;
use crate::domain::ids::ReleaseName;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReleaseRefusal {
    #[error("The console has no release '{0}'. Releases are configured as [releases.<name>] in the console's configuration file; pick one on the dashboard.")]
    UnknownRelease(String),
    #[error("Promotion refused: release {release} lists {repository}, and Pulp has no RPM repository of that name. Create it in Pulp or remove it from [releases.{release}] in the console's configuration.")]
    UnknownMember {
        release: ReleaseName,
        repository: String,
    },
    #[error("Promotion refused: {repository} is not a member of release {release} (its members: {members}).")]
    NotAMember {
        release: ReleaseName,
        repository: String,
        members: String,
    },
    #[error("Promotion refused: {field} names no version for {repository}; a release moves all its members ({members}).")]
    MemberMissing {
        field: &'static str,
        repository: String,
        members: String,
    },
    #[error("Promotion refused: the confirmation text does not match the release's name.")]
    ConfirmationMismatch,
    #[error("Promotion refused: every member of {release} already serves its target in {environment}; nothing would move.")]
    NothingToPromote {
        release: ReleaseName,
        environment: EnvironmentName,
    },
    /// The policy's refusal of the environment (who, when): one for the whole release.
    #[error(transparent)]
    Gate(Refusal),
    /// One member's refusal: nothing moves for any member.
    #[error("{repository}: {refusal} Nothing was moved for any member of the release.")]
    Member {
        repository: String,
        refusal: Refusal,
    },
}

impl ReleaseRefusal {
    /// The refusal of a single deploy this is, or carries (its status and API code).
    pub fn deploy_refusal(&self) -> Option<&Refusal> {
        match self {
            Self::Gate(refusal) | Self::Member { refusal, .. } => Some(refusal),
            _ => None,
        }
    }
}
