//! Several publications by href in few calls: the ones not already known (publications
//! never change, so each is read once) are asked for `PUBLICATIONS_PER_QUERY` at a time
//! with `<plugin's publications>?pulp_href__in=<a>,<b>,…` (each href to its own plugin's
//! list), concurrently.

use futures::future::try_join_all;

use super::dto::PublicationDto;
use super::manager::PUBLICATION_FIELDS;
use super::plugins::plugin_of_href;
use super::plugins::{Plugin, PLUGINS};
use super::PulpClient;
use crate::adapters::pulp::pagination::with_query;
use crate::domain::repository::{Publication, PublicationHref};
use crate::ports::UpstreamError;

/// Hrefs per query (about 75 characters each: the URL stays far below 8 KB).
const PUBLICATIONS_PER_QUERY: usize = 40;

impl PulpClient {
    pub(super) async fn publications_by_href(
        &self,
        hrefs: &[PublicationHref],
    ) -> Result<Vec<Publication>, UpstreamError> {
        let (mut known, missing) = self.publications.split(hrefs.iter().cloned());
        let by_plugin: Vec<(&Plugin, Vec<PublicationHref>)> = PLUGINS
            .into_iter()
            .map(|plugin| {
                let of_plugin = missing
                    .iter()
                    .filter(|h| plugin_of_href(h.as_str()).content_type == plugin.content_type)
                    .cloned()
                    .collect();
                (plugin, of_plugin)
            })
            .collect();
        let batches = by_plugin.iter().flat_map(|(plugin, hrefs)| {
            hrefs
                .chunks(PUBLICATIONS_PER_QUERY)
                .map(|batch| self.publication_batch(plugin, batch))
        });
        for found in try_join_all(batches).await? {
            found.iter().for_each(|p| self.remember(p));
            known.extend(found);
        }
        Ok(known)
    }

    async fn publication_batch(
        &self,
        plugin: &Plugin,
        batch: &[PublicationHref],
    ) -> Result<Vec<Publication>, UpstreamError> {
        let hrefs: Vec<&str> = batch.iter().map(PublicationHref::as_str).collect();
        let url = with_query(
            &self.url_for(plugin.publications)?,
            &[
                ("pulp_href__in", &hrefs.join(",")),
                ("fields", PUBLICATION_FIELDS),
                ("limit", &PUBLICATIONS_PER_QUERY.to_string()),
            ],
        );
        let page: super::dto::PageDto<PublicationDto> = self.get_json(&url).await?;
        page.results
            .into_iter()
            .map(PublicationDto::into_domain)
            .collect()
    }
}
