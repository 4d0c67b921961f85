//! The server's integration tests, in one binary: each module used to be its own test
//! binary, and every one of them linked the whole server (over a gigabyte each with debug
//! information), which filled CI's disk and spent minutes linking. One binary links once.
//!
//! Each module runs a real server on a temp SQLite file through the participant API
//! (`support`); `crash` starts the release-like binary as a process and SIGKILLs it.

mod support;

mod accounts;
mod api_document;
mod backup;
mod chaos;
mod conduct;
mod crash;
mod foundation;
mod governance;
mod instances;
mod learning;
mod lobby;
mod matches;
mod memory;
mod modes;
mod participant;
mod procedure;
mod programs;
mod records;
mod referee;
mod replay;
