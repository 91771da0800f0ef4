//! Several instances, one ledger: three `docx2pdf serve` processes of the real binary on one
//! PostgreSQL database share an account of 100 credits, and 300 concurrent conversions spread
//! over them spend exactly the allowance (skipped, saying so, without a PostgreSQL server).

mod common;
mod pg;

use std::collections::BTreeMap;
use std::sync::{Arc, Barrier};

use common::docx::{docx, paragraph};
use entity::{ledger_entry, monthly_usage, reservation};
use pg::server::{account_with_key, run, Server};
use pg::TestDb;
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::Value;

const INSTANCES: usize = 3;
const REQUESTS: usize = 300;
const CREDITS: u32 = 100;

#[test]
fn three_instances_spend_exactly_the_allowance_under_300_concurrent_requests() {
    let Some(db) = TestDb::create_blocking() else { return };
    let key = account_with_key(&db.url, "acme", CREDITS);
    // Every request must get through admission: a queue as long as the requests one
    // instance can receive, so no 503 `overloaded` can stand for a refused debit.
    let queue = REQUESTS.to_string();
    let servers: Vec<Server> = (0..INSTANCES)
        .map(|_| Server::start(&db.url, &["--workers", "2", "--queue", &queue, "--db-max-connections", "8"]))
        .collect();
    let servers = Arc::new(servers);
    let file = Arc::new(docx(&paragraph("One page for the shared ledger")));

    let start = Arc::new(Barrier::new(REQUESTS));
    let clients: Vec<_> = (0..REQUESTS)
        .map(|i| {
            let (servers, file, start, key) = (servers.clone(), file.clone(), start.clone(), key.clone());
            std::thread::spawn(move || {
                start.wait();
                servers[i % INSTANCES].convert(&key, &file)
            })
        })
        .collect();
    let mut outcomes: BTreeMap<(u16, String), usize> = BTreeMap::new();
    for client in clients {
        let (status, body) = client.join().unwrap();
        let code = if status == 200 {
            "pdf".to_owned()
        } else {
            serde_json::from_str::<Value>(&body)
                .ok()
                .and_then(|v| v["code"].as_str().map(str::to_owned))
                .unwrap_or(body)
        };
        *outcomes.entry((status, code)).or_default() += 1;
    }
    let expected = BTreeMap::from([((200, "pdf".to_owned()), 100), ((429, "insufficient_credits".to_owned()), 200)]);
    assert_eq!(outcomes, expected, "every request is either converted or refused for credits");

    // The ledger agrees, read from the database and through the `usage` command.
    let (entries, used, reserved, holds) = pg::block_on(async {
        let conn = db.connect().await;
        let entries: Vec<ledger_entry::Model> = ledger_entry::Entity::find().all(&conn).await.unwrap();
        let usage = monthly_usage::Entity::find().all(&conn).await.unwrap();
        let holds = reservation::Entity::find().count(&conn).await.unwrap();
        (entries, usage.iter().map(|u| u.used).sum::<i64>(), usage.iter().map(|u| u.reserved).sum::<i64>(), holds)
    });
    assert_eq!(entries.len(), 100);
    assert_eq!(entries.iter().map(|e| e.credits).sum::<i64>(), 100);
    assert_eq!((used, reserved, holds), (100, 0, 0));
    let usage = run(&db.url, &["usage", "--account", "acme"]);
    for line in ["used:      100", "remaining: 0", "held:      0", "entries:   100"] {
        assert!(usage.contains(line), "{line:?} in {usage}");
    }
    // Each instance's /metrics counts its own debits: together the allowance, and the
    // work was spread over all of them.
    let debited: Vec<u64> = servers
        .iter()
        .map(|server| {
            let (_, metrics) = server.get("/metrics");
            assert!(metrics.contains("docx2pdf_db_connections_max 8\n"), "{metrics}");
            metrics
                .lines()
                .find_map(|l| l.strip_prefix("docx2pdf_credits_debited_total "))
                .and_then(|n| n.trim().parse().ok())
                .expect("credits debited in /metrics")
        })
        .collect();
    assert_eq!(debited.iter().sum::<u64>(), 100, "{debited:?}");
    assert!(debited.iter().all(|&n| n > 0), "an instance converted nothing: {debited:?}");
}
