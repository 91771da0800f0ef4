//! The operator's commands: accounts, keys and usage.

use std::fmt::Write;

use super::{emit, CliError};
use crate::clock::unix_ms;
use crate::config::{AccountsCommand, DbArgs, KeysCommand, UsageArgs};
use crate::credits::{format_reset_at, Month};
use crate::db;

fn block_on<T>(f: impl std::future::Future<Output = Result<T, CliError>>) -> Result<T, CliError> {
    actix_web::rt::System::new().block_on(f)
}

/// `docx2pdf accounts …`.
pub fn accounts(command: AccountsCommand, args: DbArgs) -> Result<(), CliError> {
    block_on(async move {
        let conn = db::connect(&args.database_url, &args.pool()).await?;
        let clock = args.clock();
        let mut out = String::new();
        match command {
            AccountsCommand::Create { name, plan, monthly_credits } => {
                let a = db::accounts::create(&conn, &name, plan, monthly_credits.into(), unix_ms(clock.now())).await?;
                let _ = writeln!(out, "created account {} ({}, {} credits a month)", a.name, a.plan, a.monthly_credits);
            }
            AccountsCommand::List => {
                let _ = writeln!(out, "{:<24} {:<6} {:>15}", "NAME", "PLAN", "MONTHLY_CREDITS");
                for a in db::accounts::list(&conn).await? {
                    let _ = writeln!(out, "{:<24} {:<6} {:>15}", a.name, a.plan, a.monthly_credits);
                }
            }
            AccountsCommand::Set { name, plan, monthly_credits } => {
                if plan.is_none() && monthly_credits.is_none() {
                    return Err(CliError::Usage("nothing to change: give --plan and/or --monthly-credits".into()));
                }
                let a = db::accounts::update(&conn, &name, plan, monthly_credits.map(i64::from)).await?;
                let _ = writeln!(out, "account {} is now {} with {} credits a month", a.name, a.plan, a.monthly_credits);
            }
            AccountsCommand::SignInLink { name, base_url, valid_for } => {
                let now = clock.now();
                let expires = now + chrono::Duration::from_std(valid_for).unwrap_or_default();
                let token = db::sign_in_links::issue(&conn, &name, unix_ms(now), unix_ms(expires)).await?;
                let _ = writeln!(
                    out,
                    "a sign-in link for {name}, usable once until {} (UTC); older links, the password and \
                     every session of the account are ended:",
                    format_reset_at(expires)
                );
                let _ = writeln!(out, "{}/account/set-up?token={token}", base_url.trim_end_matches('/'));
            }
        }
        emit(&out);
        Ok(())
    })
}

/// `docx2pdf keys …`.
pub fn keys(command: KeysCommand, args: DbArgs) -> Result<(), CliError> {
    block_on(async move {
        let conn = db::connect(&args.database_url, &args.pool()).await?;
        let clock = args.clock();
        let mut out = String::new();
        match command {
            KeysCommand::Create { account, name } => {
                let key = db::keys::create_named(&conn, &account, name.as_deref(), unix_ms(clock.now())).await?;
                let _ = writeln!(out, "created a key for {account} (prefix {}); it is shown only this once:", key.prefix);
                let _ = writeln!(out, "{}", key.text);
            }
            KeysCommand::List { account } => {
                let _ = writeln!(out, "{:<14} {:<8} NAME", "PREFIX", "STATUS");
                for k in db::keys::list(&conn, &account).await? {
                    let status = if k.revoked_at.is_some() { "revoked" } else { "active" };
                    let _ = writeln!(out, "{:<14} {:<8} {}", k.prefix, status, k.name.as_deref().unwrap_or("-"));
                }
            }
            KeysCommand::Revoke { prefix } => {
                let k = db::keys::revoke(&conn, &prefix, unix_ms(clock.now())).await?;
                let _ = writeln!(out, "revoked key {}", k.prefix);
            }
        }
        emit(&out);
        Ok(())
    })
}

/// `docx2pdf usage --account NAME [--month YYYY-MM]`.
pub fn usage(args: UsageArgs) -> Result<(), CliError> {
    let month = match &args.month {
        Some(m) => Month::parse(m).ok_or_else(|| CliError::Usage(format!("--month must be YYYY-MM, not {m:?}")))?,
        None => Month::of(args.db.clock().now()),
    };
    block_on(async move {
        let conn = db::connect(&args.db.database_url, &args.db.pool()).await?;
        let mut out = String::new();
        let account = db::accounts::get(&conn, &args.account).await?;
        let balance = db::usage::balance(&conn, account.id, month).await?;
        let entries = db::usage::entries(&conn, account.id, month).await?;
        let _ = writeln!(out, "account:   {}", account.name);
        let _ = writeln!(out, "month:     {month}");
        let _ = writeln!(out, "used:      {}", balance.used);
        let _ = writeln!(out, "remaining: {}", balance.available(account.monthly_credits));
        let _ = writeln!(out, "limit:     {}", account.monthly_credits);
        let _ = writeln!(out, "held:      {}", balance.reserved);
        let _ = writeln!(out, "resets at: {}", format_reset_at(month.reset_at()));
        let _ = writeln!(out, "entries:   {}", entries.len());
        for e in entries {
            let at = chrono::DateTime::from_timestamp_millis(e.created_at).map(format_reset_at).unwrap_or_default();
            let _ = writeln!(out, "  {at}  {:>3} credits  {:>10} bytes  request {}", e.credits, e.bytes, e.request_id);
        }
        emit(&out);
        Ok(())
    })
}
