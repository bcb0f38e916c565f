//! Policy: who may synchronize, deploy and approve where (the gate), and when nobody may
//! (freeze windows, one-off or recurring, and their override), and how often anyone may write
//! (the write rate).

pub mod freeze;
pub mod gate;
pub mod write_rate;
