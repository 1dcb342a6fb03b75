"""Independent check of a fractured snapshot read on MariaDB (an open stress candidate, see the
2026-11-28 closing notes): 8 client processes run bank transfers (two relative UPDATEs, half of
them after reading both accounts) and full-table reads at REPEATABLE READ; every read's total
must be the constant sum. Plain PyMySQL (`pip install pymysql`), no txhunt instrumentation.
Each session is its own process, so that the clients run truly in parallel (Python threads would
take turns on the interpreter lock and hide timing races).

Usage: start a private server with `txhunt server mariadb`, then
    python3 scripts/triage/mariadb-bank-reads.py PORT ON|OFF SECONDS [IDLE [LEVEL]]
(ON/OFF: innodb_snapshot_isolation). IDLE (default 0) more connections each hold a transaction
open with one uncommitted insert into a side table for the whole run: they conflict with nothing,
but every read view then has that many more active transactions to list. LEVEL: the sessions'
isolation level (default REPEATABLE READ). It creates and drops its own database, `bankcheck`.
Exit status 1 when some read's total was wrong."""
import multiprocessing, random, sys, time, pymysql

KEYS, START, SESSIONS = 8, 100, 8


def connect(port, database=None):
    return pymysql.connect(host="127.0.0.1", port=port, user="root", database=database, autocommit=True)


def session(args):
    """One client: transfers and full reads until `stop`; returns its counts and bad reads."""
    port, si, level, seed, stop = args
    rng = random.Random(seed)
    cur = connect(port, "bankcheck").cursor()
    cur.execute(f"SET SESSION innodb_snapshot_isolation={si}")
    cur.execute(f"SET SESSION TRANSACTION ISOLATION LEVEL {level}")
    stats = {"reads": 0, "bad": 0, "commits": 0, "errors": 0}
    bad = []
    while time.time() < stop:
        try:
            cur.execute("BEGIN")
            if rng.random() < 0.25:
                cur.execute("SELECT k, b FROM bank")
                rows = cur.fetchall()
                stats["reads"] += 1
                if sum(b for _, b in rows) != KEYS * START:
                    stats["bad"] += 1
                    bad.append(rows)
            else:
                a = rng.randint(1, KEYS)
                t = (a - 1 + rng.randint(1, KEYS - 1)) % KEYS + 1
                amount = rng.randint(1, 10)
                if rng.random() < 0.5:
                    for k in (a, t):
                        cur.execute(f"SELECT b FROM bank WHERE k = {k}")
                        cur.fetchall()
                cur.execute(f"UPDATE bank SET b = b + ({-amount}) WHERE k = {a}")
                cur.execute(f"UPDATE bank SET b = b + ({amount}) WHERE k = {t}")
            cur.execute("COMMIT")
            stats["commits"] += 1
        except pymysql.err.MySQLError:
            stats["errors"] += 1
            try:
                cur.execute("ROLLBACK")
            except pymysql.err.MySQLError:
                pass
    return stats, bad


def main():
    port, si, seconds = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    idle = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    level = sys.argv[5] if len(sys.argv) > 5 else "REPEATABLE READ"
    root = connect(port).cursor()
    root.execute("SHOW DATABASES LIKE 'bankcheck'")
    if root.fetchone():
        sys.exit("a database named bankcheck exists already: not touching it")
    root.execute("CREATE DATABASE bankcheck")
    try:
        root.execute("CREATE TABLE bankcheck.bank(k INT PRIMARY KEY, b INT NOT NULL) ENGINE=InnoDB")
        root.execute("INSERT INTO bankcheck.bank VALUES " + ",".join(f"({k},{START})" for k in range(1, KEYS + 1)))
        root.execute("CREATE TABLE bankcheck.side(i INT PRIMARY KEY) ENGINE=InnoDB")
        holders = [connect(port, "bankcheck") for _ in range(idle)]
        for i, holder in enumerate(holders):
            holder.cursor().execute("BEGIN")
            holder.cursor().execute(f"INSERT INTO side VALUES ({i})")
        stop = time.time() + seconds
        with multiprocessing.Pool(SESSIONS) as pool:
            results = pool.map(session, [(port, si, level, seed, stop) for seed in range(SESSIONS)])
        for holder in holders:
            holder.rollback()
            holder.close()
        total = {key: sum(stats[key] for stats, _ in results) for key in results[0][0]}
        root.execute("SELECT SUM(b) FROM bankcheck.bank")
        print(f"{level}, innodb_snapshot_isolation={si}, {idle} idle writers: {total}, final total {root.fetchone()[0]}")
        for rows in [rows for _, bad in results for rows in bad][:5]:
            print("  bad read:", rows, "total", sum(b for _, b in rows))
    finally:
        root.execute("DROP DATABASE bankcheck")
    sys.exit(1 if total["bad"] else 0)


if __name__ == "__main__":
    main()
