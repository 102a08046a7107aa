//! The machine and the moment a benchmark ran on, for the scoreboard.

use std::time::{SystemTime, UNIX_EPOCH};

#[derive(Clone, Debug, serde::Serialize)]
pub struct Machine {
    /// What `uname -srm` prints: kernel name, release, hardware.
    pub uname: String,
    pub cores: usize,
    pub memory_mb: u64,
}

fn c_field(field: &[libc::c_char]) -> String {
    let bytes: Vec<u8> = field
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

impl Machine {
    pub fn this() -> Machine {
        // SAFETY: a zeroed utsname is a valid out-parameter for uname.
        let mut u: libc::utsname = unsafe { std::mem::zeroed() };
        // SAFETY: plain system call filling `u`.
        let uname = if unsafe { libc::uname(&mut u) } == 0 {
            format!(
                "{} {} {}",
                c_field(&u.sysname),
                c_field(&u.release),
                c_field(&u.machine)
            )
        } else {
            "unknown".to_string()
        };
        // SAFETY: sysconf only reads configuration values.
        let (pages, page_size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        let memory_mb = if pages > 0 && page_size > 0 {
            (pages as u64 * page_size as u64) >> 20
        } else {
            0
        };
        Machine {
            uname,
            cores: cores(),
            memory_mb,
        }
    }
}

/// A UTC calendar moment, enough for file names and scoreboard dates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UtcTime {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
}

impl UtcTime {
    pub fn now() -> UtcTime {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        UtcTime::from_unix(secs)
    }

    /// Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    pub fn from_unix(secs: i64) -> UtcTime {
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        UtcTime {
            year,
            month,
            day,
            hour: (rem / 3600) as u32,
            minute: (rem % 3600 / 60) as u32,
            second: (rem % 60) as u32,
        }
    }

    /// `2025-03-01`
    pub fn date(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// `2025-03-01 14:05 UTC`
    pub fn minute_stamp(&self) -> String {
        format!("{} {:02}:{:02} UTC", self.date(), self.hour, self.minute)
    }

    /// `20250301-140509`, for folder names that sort by time.
    pub fn compact(&self) -> String {
        format!(
            "{:04}{:02}{:02}-{:02}{:02}{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(UtcTime::from_unix(0).compact(), "19700101-000000");
        // 2000-02-29 12:34:56 UTC (leap day)
        assert_eq!(UtcTime::from_unix(951_827_696).compact(), "20000229-123456");
        // 2024-12-31 23:59:59 UTC
        assert_eq!(
            UtcTime::from_unix(1_735_689_599).minute_stamp(),
            "2024-12-31 23:59 UTC"
        );
    }

    #[test]
    fn machine_is_described() {
        let m = Machine::this();
        assert!(m.uname.split(' ').count() >= 3, "{}", m.uname);
        assert!(m.cores >= 1);
        assert!(m.memory_mb > 0);
    }
}
