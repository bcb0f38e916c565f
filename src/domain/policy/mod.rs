//! Policy: who may synchronize, deploy and approve where (the gate), and when nobody may
//! (freeze windows, one-off or recurring, and their override).

pub mod freeze;
pub mod gate;
