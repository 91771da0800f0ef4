//! Dates written with a date picker's `w:dateFormat` in its `w:lid` (§17.5.2.7), or a
//! field's `\@` date picture (§17.16.4.1): `d`, `dd`, `ddd`, `dddd`, `M`…`MMMM`, `yy`,
//! `yyyy`, `H`, `HH`, `h`, `hh`, `mm`, `ss`, `AM/PM`, and 'quoted' text, with the month
//! and day names of English, German, French and Spanish.

/// A calendar date and a time of day, as an ISO 8601 value gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DateTime {
    pub year: i32,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
}

/// Reads `2026-03-03`, `2026-03-03T14:05` or `2026-03-03T14:05:09Z`; `None` for anything
/// else or a day the month does not have.
pub(crate) fn parse_iso(text: &str) -> Option<DateTime> {
    let text = text.trim();
    let (date, time) = match text.find(['T', ' ']) {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let mut parts = date.split('-');
    let year = parts.next().filter(|y| y.len() == 4)?.parse().ok()?;
    let month: u32 = parts.next().filter(|m| m.len() == 2)?.parse().ok()?;
    let day: u32 = parts.next().filter(|d| d.len() == 2)?.parse().ok()?;
    if parts.next().is_some() || !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let (mut hour, mut minute, mut second) = (0, 0, 0);
    if let Some(time) = time {
        let clock: String = time.chars().take_while(|c| c.is_ascii_digit() || *c == ':').collect();
        let mut t = clock.split(':');
        hour = t.next()?.parse().ok().filter(|h| *h < 24)?;
        minute = t.next()?.parse().ok().filter(|m| *m < 60)?;
        second = t.next().map_or(Some(0), |s| s.parse().ok().filter(|s| *s < 60))?;
    }
    Some(DateTime { year, month, day, hour, minute, second })
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The day of the week, 0 for Sunday (Sakamoto's method).
fn weekday(d: &DateTime) -> usize {
    const T: [i32; 12] = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
    let y = if d.month < 3 { d.year - 1 } else { d.year };
    ((y + y / 4 - y / 100 + y / 400 + T[d.month as usize - 1] + d.day as i32).rem_euclid(7)) as usize
}

/// Month and day names of a language.
struct Names {
    months: [&'static str; 12],
    short_months: [&'static str; 12],
    days: [&'static str; 7],
    short_days: [&'static str; 7],
}

const EN: Names = Names {
    months: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
    short_months: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    days: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
    short_days: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
};

const DE: Names = Names {
    months: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
    short_months: ["Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez"],
    days: ["Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"],
    short_days: ["So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"],
};

const FR: Names = Names {
    months: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
    short_months: ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."],
    days: ["dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"],
    short_days: ["dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."],
};

const ES: Names = Names {
    months: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
    short_months: ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"],
    days: ["domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"],
    short_days: ["dom", "lun", "mar", "mié", "jue", "vie", "sáb"],
};

fn names(lang: &str) -> &'static Names {
    match lang.get(..2).map(str::to_ascii_lowercase).as_deref() {
        Some("de") => &DE,
        Some("fr") => &FR,
        Some("es") => &ES,
        _ => &EN,
    }
}

/// `date` written with the picture `format` in the language `lang` (`de-DE`).
pub(crate) fn format(date: &DateTime, format: &str, lang: &str) -> String {
    let names = names(lang);
    let chars: Vec<char> = format.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            let end = chars[i + 1..].iter().position(|&q| q == '\'').map_or(chars.len(), |p| i + 1 + p);
            out.extend(&chars[i + 1..end]);
            i = end + 1;
            continue;
        }
        let rest: String = chars[i..].iter().collect();
        if rest.to_ascii_uppercase().starts_with("AM/PM") {
            let pm = date.hour >= 12;
            let text = if pm { "PM" } else { "AM" };
            out.push_str(&if rest.starts_with("am/pm") { text.to_ascii_lowercase() } else { text.to_owned() });
            i += 5;
            continue;
        }
        let run = chars[i..].iter().take_while(|&&r| r == c).count();
        match c {
            'd' => match run {
                1 => out.push_str(&date.day.to_string()),
                2 => out.push_str(&format!("{:02}", date.day)),
                3 => out.push_str(names.short_days[weekday(date)]),
                _ => out.push_str(names.days[weekday(date)]),
            },
            'M' => match run {
                1 => out.push_str(&date.month.to_string()),
                2 => out.push_str(&format!("{:02}", date.month)),
                3 => out.push_str(names.short_months[date.month as usize - 1]),
                _ => out.push_str(names.months[date.month as usize - 1]),
            },
            'y' | 'Y' => match run {
                1 | 2 => out.push_str(&format!("{:02}", date.year.rem_euclid(100))),
                _ => out.push_str(&format!("{:04}", date.year)),
            },
            'H' => out.push_str(&two(date.hour, run)),
            'h' => out.push_str(&two((date.hour + 11) % 12 + 1, run)),
            'm' => out.push_str(&two(date.minute, run)),
            's' | 'S' => out.push_str(&two(date.second, run)),
            other => {
                for _ in 0..run {
                    out.push(other);
                }
            }
        }
        i += run;
    }
    out
}

/// A number with at least two digits when the picture doubles its letter.
fn two(n: u32, run: usize) -> String {
    if run >= 2 {
        format!("{n:02}")
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_is_written_in_the_controls_language() {
        let d = parse_iso("2026-03-03").unwrap();
        assert_eq!(format(&d, "d MMMM yyyy", "de-DE"), "3 März 2026");
        assert_eq!(format(&d, "dddd d MMMM yyyy", "fr-FR"), "mardi 3 mars 2026");
        assert_eq!(format(&d, "dddd, MMMM d, yyyy", "en-US"), "Tuesday, March 3, 2026");
        assert_eq!(format(&d, "dd.MM.yy", "de-DE"), "03.03.26");
        assert_eq!(format(&d, "d 'de' MMMM", "es-ES"), "3 de marzo");
    }

    #[test]
    fn times_and_invalid_dates() {
        let t = parse_iso("2026-12-31T14:05:09Z").unwrap();
        assert_eq!(format(&t, "h:mm AM/PM", "en-US"), "2:05 PM");
        assert_eq!(format(&t, "HH:mm:ss", "en-US"), "14:05:09");
        assert_eq!(parse_iso("2026-02-29"), None);
        assert_eq!(parse_iso("2026-13-01"), None);
        assert_eq!(parse_iso("tomorrow"), None);
    }
}
