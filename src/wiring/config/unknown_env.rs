//! Unknown `REPO_CONSOLE_*` variables are refused: a typo (`REPO_CONSOLE_PULP_BASEURL`) would
//! otherwise be ignored, and the console would quietly serve something else than meant. The
//! refusal names the nearest known variable.

use toml::Table;

use crate::wiring::config::nearest::distance;
use crate::wiring::config::overrides::{env_name, settable_keys, ALIASES, ENV_PREFIX};
use crate::wiring::sections::error::ConfigError;

/// `--config`'s variable, read by the command line parser.
pub const CONFIG_VARIABLE: &str = "REPO_CONSOLE_CONFIG";

/// Every variable the console reads: one per settable key, the older names, `--config`'s.
pub fn known_variables(defaults: &Table) -> Vec<String> {
    let keys = settable_keys(defaults).into_iter();
    let canonical = keys.map(|(section, key, _)| env_name(section, key));
    let older = ALIASES.iter().filter_map(|a| a.env).map(str::to_owned);
    canonical
        .chain(older)
        .chain([CONFIG_VARIABLE.to_owned()])
        .collect()
}

/// Refuses the first `REPO_CONSOLE_*` variable of `environment` that the console does not read.
pub fn refuse_unknown(
    defaults: &Table,
    environment: &[(String, String)],
) -> Result<(), ConfigError> {
    let known = known_variables(defaults);
    let unknown = environment
        .iter()
        .map(|(name, _)| name)
        .filter(|name| name.starts_with(ENV_PREFIX))
        .find(|name| !known.contains(name));
    let Some(name) = unknown else {
        return Ok(());
    };
    let nearest = known
        .iter()
        .min_by_key(|candidate| distance(name, candidate))
        .map_or(String::new(), |n| format!("; did you mean {n}?"));
    Err(ConfigError::UnknownVariable(format!(
        "{name} is not a setting{nearest} (the variables are REPO_CONSOLE_<SECTION>_<KEY> for \
         the keys that `repo-console config defaults` prints; unset it or correct its name)"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wiring::config::raw::DEFAULT_TOML;

    fn defaults() -> Table {
        DEFAULT_TOML.parse().unwrap()
    }

    fn env(name: &str) -> Vec<(String, String)> {
        vec![(name.to_owned(), "x".to_owned())]
    }

    #[test]
    fn a_misspelt_variable_is_refused_naming_the_nearest_key() {
        let error = refuse_unknown(&defaults(), &env("REPO_CONSOLE_PULP_BASEURL")).unwrap_err();
        let text = error.to_string();
        assert!(
            text.contains("REPO_CONSOLE_PULP_BASEURL is not a setting; did you mean REPO_CONSOLE_PULP_BASE_URL?"),
            "{text}"
        );
    }

    #[test]
    fn every_key_its_older_names_and_the_config_variable_are_known() {
        let known = [
            "REPO_CONSOLE_PULP_BASE_URL",
            "REPO_CONSOLE_PULP_URL",
            "REPO_CONSOLE_LISTEN",
            "REPO_CONSOLE_SERVER_LISTEN",
            "REPO_CONSOLE_POLICY_REQUEST_TTL_HOURS",
            CONFIG_VARIABLE,
        ];
        for name in known {
            assert!(refuse_unknown(&defaults(), &env(name)).is_ok(), "{name}");
        }
    }

    #[test]
    fn other_variables_are_none_of_the_consoles_business() {
        assert!(refuse_unknown(&defaults(), &env("RC_TEST_PULP_URL")).is_ok());
        assert!(refuse_unknown(&defaults(), &env("PULP_BASE_URL")).is_ok());
    }

    #[test]
    fn distance_counts_edits() {
        assert_eq!(distance("BASEURL", "BASE_URL"), 1);
        assert_eq!(distance("abc", "abc"), 0);
        assert_eq!(distance("", "ab"), 2);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
