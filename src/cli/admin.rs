//! The operator's commands: accounts, keys and usage.

use chrono::Utc;

use super::CliError;
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
        match command {
            AccountsCommand::Create { name, plan, monthly_credits } => {
                let a = db::accounts::create(&conn, &name, plan, monthly_credits.into(), unix_ms(Utc::now())).await?;
                println!("created account {} ({}, {} credits a month)", a.name, a.plan, a.monthly_credits);
            }
            AccountsCommand::List => {
                println!("{:<24} {:<6} {:>15}", "NAME", "PLAN", "MONTHLY_CREDITS");
                for a in db::accounts::list(&conn).await? {
                    println!("{:<24} {:<6} {:>15}", a.name, a.plan, a.monthly_credits);
                }
            }
            AccountsCommand::Set { name, plan, monthly_credits } => {
                if plan.is_none() && monthly_credits.is_none() {
                    return Err(CliError::Usage("nothing to change: give --plan and/or --monthly-credits".into()));
                }
                let a = db::accounts::update(&conn, &name, plan, monthly_credits.map(i64::from)).await?;
                println!("account {} is now {} with {} credits a month", a.name, a.plan, a.monthly_credits);
            }
        }
        Ok(())
    })
}

/// `docx2pdf keys …`.
pub fn keys(command: KeysCommand, args: DbArgs) -> Result<(), CliError> {
    block_on(async move {
        let conn = db::connect(&args.database_url, &args.pool()).await?;
        match command {
            KeysCommand::Create { account } => {
                let key = db::keys::create(&conn, &account, unix_ms(Utc::now())).await?;
                println!("created a key for {account} (prefix {}); it is shown only this once:", key.prefix);
                println!("{}", key.text);
            }
            KeysCommand::List { account } => {
                println!("{:<14} {:<8}", "PREFIX", "STATUS");
                for k in db::keys::list(&conn, &account).await? {
                    let status = if k.revoked_at.is_some() { "revoked" } else { "active" };
                    println!("{:<14} {:<8}", k.prefix, status);
                }
            }
            KeysCommand::Revoke { prefix } => {
                let k = db::keys::revoke(&conn, &prefix, unix_ms(Utc::now())).await?;
                println!("revoked key {}", k.prefix);
            }
        }
        Ok(())
    })
}

/// `docx2pdf usage --account NAME [--month YYYY-MM]`.
pub fn usage(args: UsageArgs) -> Result<(), CliError> {
    let month = match &args.month {
        Some(m) => Month::parse(m).ok_or_else(|| CliError::Usage(format!("--month must be YYYY-MM, not {m:?}")))?,
        None => Month::of(Utc::now()),
    };
    block_on(async move {
        let conn = db::connect(&args.db.database_url, &args.db.pool()).await?;
        let account = db::accounts::get(&conn, &args.account).await?;
        let balance = db::usage::balance(&conn, account.id, month).await?;
        let entries = db::usage::entries(&conn, account.id, month).await?;
        println!("account:   {}", account.name);
        println!("month:     {month}");
        println!("used:      {}", balance.used);
        println!("remaining: {}", balance.available(account.monthly_credits));
        println!("limit:     {}", account.monthly_credits);
        println!("held:      {}", balance.reserved);
        println!("resets at: {}", format_reset_at(month.reset_at()));
        println!("entries:   {}", entries.len());
        for e in entries {
            let at = chrono::DateTime::from_timestamp_millis(e.created_at).map(format_reset_at).unwrap_or_default();
            println!("  {at}  {:>3} credits  {:>10} bytes  request {}", e.credits, e.bytes, e.request_id);
        }
        Ok(())
    })
}
