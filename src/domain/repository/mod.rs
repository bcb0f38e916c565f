//! Repositories as the console sees them: the repository, its versions and their numbers,
//! Pulp's references (hrefs, ids), the verification settings and their badge, the screens of
//! the versions page, and the risk that Pulp's retention removes a version.

pub mod href;
pub mod model;
pub mod retention;
pub mod screen;
pub mod verification;
pub mod version_number;
pub mod version_view;
