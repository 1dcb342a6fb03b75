"""Independent check of a fractured snapshot read on MariaDB (an open stress candidate, see the
2026-11-28 closing note): 8 threads run bank transfers (two relative UPDATEs, half of them after
reading both accounts) and full-table reads at REPEATABLE READ; every read's total must be the
constant sum. Plain PyMySQL (`pip install pymysql`), no txhunt instrumentation.

Usage: start a private server with `txhunt server mariadb`, then
    python3 scripts/triage/mariadb-bank-reads.py PORT ON|OFF SECONDS
(ON/OFF: innodb_snapshot_isolation). It creates and drops its own database, `bankcheck`."""
import random, sys, threading, time, pymysql

PORT = int(sys.argv[1]); SI = sys.argv[2]; SECONDS = float(sys.argv[3])
KEYS, START = 8, 100
def conn():
    c = pymysql.connect(host="127.0.0.1", port=PORT, user="root", database="bankcheck", autocommit=True)
    cur = c.cursor()
    cur.execute(f"SET SESSION innodb_snapshot_isolation={SI}")
    cur.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ")
    return c, cur
root = pymysql.connect(host="127.0.0.1", port=PORT, user="root", autocommit=True)
r = root.cursor()
r.execute("SHOW DATABASES LIKE 'bankcheck'")
if r.fetchone():
    sys.exit("a database named bankcheck exists already: not touching it")
r.execute("CREATE DATABASE bankcheck")
r.execute("CREATE TABLE bankcheck.bank(k INT PRIMARY KEY, b INT NOT NULL) ENGINE=InnoDB")
r.execute("INSERT INTO bankcheck.bank VALUES " + ",".join(f"({k},{START})" for k in range(1, KEYS+1)))
stats = {"reads": 0, "bad": 0, "commits": 0, "errors": 0}; bad = []
lock = threading.Lock(); stop = time.time() + SECONDS
def worker(seed):
    rng = random.Random(seed); c, cur = conn()
    while time.time() < stop:
        try:
            cur.execute("BEGIN")
            if rng.random() < 0.25:
                cur.execute("SELECT k, b FROM bank"); rows = cur.fetchall()
                total = sum(b for _, b in rows)
                with lock:
                    stats["reads"] += 1
                    if total != KEYS * START:
                        stats["bad"] += 1; bad.append(rows)
            else:
                a = rng.randint(1, KEYS); t = (a - 1 + rng.randint(1, KEYS - 1)) % KEYS + 1
                amt = rng.randint(1, 10)
                if rng.random() < 0.5:
                    cur.execute(f"SELECT b FROM bank WHERE k = {a}"); cur.fetchall()
                    cur.execute(f"SELECT b FROM bank WHERE k = {t}"); cur.fetchall()
                cur.execute(f"UPDATE bank SET b = b + ({-amt}) WHERE k = {a}")
                cur.execute(f"UPDATE bank SET b = b + ({amt}) WHERE k = {t}")
            cur.execute("COMMIT")
            with lock: stats["commits"] += 1
        except pymysql.err.MySQLError:
            with lock: stats["errors"] += 1
            try: cur.execute("ROLLBACK")
            except pymysql.err.MySQLError: pass
ts = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
[t.start() for t in ts]; [t.join() for t in ts]
r.execute("SELECT SUM(b) FROM bankcheck.bank"); final = r.fetchone()[0]
print(f"innodb_snapshot_isolation={SI}: {stats}, final total {final}")
for rows in bad[:3]: print("  bad read:", rows, "total", sum(b for _, b in rows))
r.execute("DROP DATABASE bankcheck")
