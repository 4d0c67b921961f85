//! A network namespace joined to this one by a veth pair: a server started in it is reached
//! at [`Netns::inside`] and reaches this side at [`Netns::outside`]; setting the link down
//! cuts it off from everything — the database, its peers, its clients — the way a failed
//! switch port would, with no error on either side until TCP gives up. Needs root
//! (`ip netns`, `ip link`); everything is removed on drop.

use std::{net::Ipv4Addr, process::Command};

/// Where a server process runs.
#[derive(Clone, Copy)]
pub enum Place<'a> {
    /// On this machine's loopback only.
    Loopback,
    /// Beside the namespace: on every address, and advertised to its peers at this side's
    /// end of the pair (so the namespaced instance can forward to it).
    Beside(&'a Netns),
    /// Inside the namespace, on its address.
    Inside(&'a Netns),
}

impl Place<'_> {
    /// The address to bind, the one peers are told, and the one clients here use.
    pub fn addresses(&self) -> (String, String, String) {
        let lo = std::net::Ipv4Addr::LOCALHOST.to_string();
        match self {
            Place::Loopback => (lo.clone(), lo.clone(), lo),
            Place::Beside(n) => ("0.0.0.0".into(), n.outside.to_string(), lo),
            Place::Inside(n) => (n.inside.to_string(), n.inside.to_string(), n.inside.to_string()),
        }
    }
}

pub struct Netns {
    pub name: String,
    /// This side's address on the pair.
    pub outside: Ipv4Addr,
    /// The namespace's address.
    pub inside: Ipv4Addr,
    host_link: String,
    inner_link: String,
}

fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip").args(args).output().map_err(|e| format!("ip {}: {e}", args.join(" ")))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("ip {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()))
    }
}

impl Netns {
    /// Makes namespace number `n` (0–250) with its veth pair on
    /// 10.231.n.0/30.
    pub fn new(n: u8) -> Result<Netns, String> {
        let pid = std::process::id();
        let name = format!("sb{pid}n{n}");
        let (outside, inside) = (Ipv4Addr::new(10, 231, n, 1), Ipv4Addr::new(10, 231, n, 2));
        let host_link = format!("sbh{pid}{n}");
        let inner_link = format!("sbn{pid}{n}");
        ip(&["netns", "add", &name])?;
        let made = Netns { name, outside, inside, host_link, inner_link };
        let (name, h, i) = (&made.name, &made.host_link, &made.inner_link);
        ip(&["link", "add", h, "type", "veth", "peer", "name", i])?;
        ip(&["link", "set", i, "netns", name])?;
        ip(&["addr", "add", &format!("{outside}/30"), "dev", h])?;
        ip(&["link", "set", h, "up"])?;
        ip(&["-n", name, "addr", "add", &format!("{inside}/30"), "dev", i])?;
        ip(&["-n", name, "link", "set", i, "up"])?;
        ip(&["-n", name, "link", "set", "lo", "up"])?;
        Ok(made)
    }

    /// The command that runs `program` inside the namespace.
    pub fn command(&self, program: &std::path::Path) -> Command {
        let mut c = Command::new("ip");
        c.args(["netns", "exec", &self.name]).arg(program);
        c
    }

    /// Cuts the namespace off (both ends of the pair down: packets are dropped, not refused).
    pub fn partition(&self) -> Result<(), String> {
        ip(&["-n", &self.name, "link", "set", &self.inner_link, "down"])?;
        ip(&["link", "set", &self.host_link, "down"])
    }

    /// Joins it again (the addresses stay; open connections resume where TCP left them).
    pub fn heal(&self) -> Result<(), String> {
        ip(&["link", "set", &self.host_link, "up"])?;
        ip(&["-n", &self.name, "link", "set", &self.inner_link, "up"])
    }
}

impl Drop for Netns {
    fn drop(&mut self) {
        let _ = ip(&["link", "del", &self.host_link]);
        let _ = ip(&["netns", "del", &self.name]);
    }
}
