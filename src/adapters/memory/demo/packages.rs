//! The demo's packages: real RHEL 9 names and versions, each family (a source package and
//! its subpackages) updated in upgrade order, a newer release of the same version, as RHEL
//! ships its fixes. A family an advisory names is updated only in the version that carries
//! the advisory, so that the diffs, the advisories and the exposure page tell one story.

use crate::adapters::memory::demo::errata::{fixed_at, named_by_advisory};

/// A small deterministic generator (so the demo looks the same every time).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % bound.max(1)
    }
}

/// Each family's name and upstream version, as RHEL 9 ships them.
const FAMILIES: &[(&str, &str)] = &[
    ("bash", "5.1.8"),
    ("coreutils", "8.32"),
    ("openssl", "3.5.1"),
    ("glibc", "2.34"),
    ("kernel", "5.14.0"),
    ("systemd", "252"),
    ("curl", "7.76.1"),
    ("openssh", "8.7p1"),
    ("sudo", "1.9.5p2"),
    ("vim", "8.2.2637"),
    ("python3", "3.9.21"),
    ("perl", "5.32.1"),
    ("tar", "1.34"),
    ("gzip", "1.12"),
    ("xz", "5.2.5"),
    ("zlib", "1.2.11"),
    ("libxml2", "2.9.13"),
    ("nginx", "1.20.1"),
    ("httpd", "2.4.62"),
    ("postgresql", "13.20"),
    ("rsync", "3.2.5"),
    ("git", "2.43.5"),
    ("tzdata", "2025b"),
    ("ca-certificates", "2024.2.69_v8.0.303"),
    ("dnf", "4.14.0"),
    ("rpm", "4.16.1.3"),
    ("grub2", "2.06"),
    ("firewalld", "1.3.4"),
    ("chrony", "4.6.1"),
    ("audit", "3.1.5"),
    ("selinux-policy", "38.1.53"),
    ("NetworkManager", "1.51.4"),
    ("util-linux", "2.37.4"),
    ("e2fsprogs", "1.46.5"),
    ("lvm2", "2.03.28"),
    ("krb5", "1.21.1"),
    ("nss", "3.101.0"),
    ("pam", "1.5.1"),
    ("shadow-utils", "4.9"),
    ("procps-ng", "3.3.17"),
    ("iproute", "6.11.0"),
    ("bind", "9.16.23"),
    ("less", "590"),
    ("findutils", "4.8.0"),
];

/// The subpackages a family may have besides its main package, and their architecture.
const SUBPACKAGES: &[(&str, &str)] = &[
    ("-libs", "x86_64"),
    ("-devel", "x86_64"),
    ("-doc", "noarch"),
    ("-tools", "x86_64"),
    ("-common", "noarch"),
    ("-help", "noarch"),
];

/// One family as a version of the repository holds it.
struct Family {
    name: &'static str,
    version: &'static str,
    release: u64,
    subpackages: Vec<(&'static str, &'static str)>,
}

impl Family {
    /// Every package of the family, as `name-version-release.el9.arch`.
    fn builds(&self) -> Vec<String> {
        let main = std::iter::once(("", "x86_64"));
        main.chain(self.subpackages.iter().copied())
            .map(|(suffix, arch)| {
                format!(
                    "{}{suffix}-{}-{}.el9.{arch}",
                    self.name, self.version, self.release
                )
            })
            .collect()
    }
}

/// The packages one version adds and removes.
pub struct Step {
    pub add: Vec<String>,
    pub remove: Vec<String>,
}

/// Every family and its current release: each step updates a few of them.
pub struct Packages {
    rng: Lcg,
    families: Vec<Family>,
}

impl Packages {
    pub fn new(mut rng: Lcg) -> Self {
        let families = FAMILIES
            .iter()
            .map(|(name, version)| {
                let subpackages = SUBPACKAGES
                    .iter()
                    .copied()
                    .filter(|_| rng.next(2) == 0)
                    .collect();
                // A family an advisory names starts at release 1: the advisory's build is 2.
                let release = if named_by_advisory(name) {
                    1
                } else {
                    1 + rng.next(4)
                };
                Family {
                    name,
                    version,
                    release,
                    subpackages,
                }
            })
            .collect();
        Self { rng, families }
    }

    /// The change of step `step`: every package at step 1; later, the families the step's
    /// advisories name and a few others, each one release newer (the older build removed).
    pub fn step(&mut self, step: u64) -> Step {
        if step == 1 {
            let add = self.families.iter().flat_map(Family::builds).collect();
            return Step {
                add,
                remove: Vec::new(),
            };
        }
        let mut updated: Vec<usize> = fixed_at(step)
            .filter_map(|name| self.families.iter().position(|f| f.name == name))
            .collect();
        for _ in 0..1 + self.rng.next(5) {
            let pick = self.rng.next(self.families.len() as u64) as usize;
            if !named_by_advisory(self.families[pick].name) && !updated.contains(&pick) {
                updated.push(pick);
            }
        }
        let mut change = Step {
            add: Vec::new(),
            remove: Vec::new(),
        };
        for index in updated {
            let family = &mut self.families[index];
            change.remove.extend(family.builds());
            family.release += 1;
            change.add.extend(family.builds());
        }
        change
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::memory::content::package_of;

    #[test]
    fn every_update_is_an_upgrade_of_the_same_package() {
        let mut packages = Packages::new(Lcg(9));
        let first = packages.step(1);
        assert!(first.add.len() > 100, "{}", first.add.len());
        for step in 2..=47 {
            let change = packages.step(step);
            assert_eq!(change.add.len(), change.remove.len());
            for (old, new) in change.remove.iter().zip(&change.add) {
                let (old, new) = (package_of(old), package_of(new));
                assert_eq!(old.name, new.name);
                assert_eq!(
                    old.evr.rpm_cmp(&new.evr),
                    std::cmp::Ordering::Less,
                    "{old:?} -> {new:?}"
                );
            }
        }
    }

    #[test]
    fn the_security_fix_arrives_with_its_advisory() {
        let mut packages = Packages::new(Lcg(9));
        let mut openssl = Vec::new();
        for step in 1..=46 {
            let change = packages.step(step);
            if change.add.iter().any(|p| p.starts_with("openssl-3")) {
                openssl.push(step);
            }
        }
        assert_eq!(openssl, vec![1, 42]);
    }
}
