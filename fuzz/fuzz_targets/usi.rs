//! USI sessions (UCI with shogi text), in process: commands from a structured generator (see
//! `acedrex_fuzz::session`). The session must end with `Ok` and answer its closing isready.
#![no_main]

use acedrex::protocol::Protocol;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| acedrex_fuzz::session::run(Protocol::Usi, data));
