//! Environments: the ordered path a version goes through, how each names its distribution,
//! the promotion rules of that order, and the one lookup of an environment by name.

pub mod lookup;
pub mod path;

pub use lookup::UnknownEnvironment;
pub use path::{
    ahead_by, promotion_check, DistributionNaming, Environment, EnvironmentName, EnvironmentPath,
    InvalidEnvironmentName, InvalidPath, InvalidPattern, NamePattern, PromotionCheck,
};
