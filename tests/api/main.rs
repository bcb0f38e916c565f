//! HTTP tests over a real socket, against the in-memory upstream.

mod deploy;
mod helpers;
mod pages;
mod usecases;
