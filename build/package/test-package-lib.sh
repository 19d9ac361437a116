# Helpers of test-package.sh (sourced; it sets fail, work and sqlite).

# older_deb NEW VERSION OUT: an "older build" of the package for dpkg's upgrade path:
# the same files as NEW with a lower Version (so apt-get install NEW upgrades it).
older_deb() {
	local tree="$work/older-deb"
	rm -rf "$tree"
	dpkg-deb -R "$1" "$tree"
	sed -i "s/^Version: .*/Version: $2/" "$tree/DEBIAN/control"
	dpkg-deb -Znone --build "$tree" "$3" >/dev/null
	rm -rf "$tree"
}

# previous_schema_datadir DIR: a data dir at the schema before the newest migration,
# made as the store makes one (each migration of backend/store/migrations and its row
# in schema_migrations), holding one session with two messages (and their search
# rows) as an older Hermes wrote them. Prints the newest migration's version.
previous_schema_datadir() {
	local db="$1/hermes.db" migs=(backend/store/migrations/*.sql) m v
	mkdir -p "$1"
	"$sqlite" "$db" <<<'CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);'
	for m in "${migs[@]::${#migs[@]}-1}"; do
		v="$(basename "$m")"; v=$((10#${v%%_*}))
		{
			echo 'BEGIN IMMEDIATE;'
			cat "$m"
			echo
			echo "INSERT INTO schema_migrations(version, name, applied_at) VALUES ($v, '$(basename "$m")', '$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)');"
			echo 'COMMIT;'
		} | "$sqlite" "$db" || fail "applying $m to $db"
	done
	"$sqlite" "$db" <<'SQL' || fail "writing the old session to $db"
BEGIN IMMEDIATE;
INSERT INTO sessions(id, title, title_auto, profile, created_at, updated_at, state)
	VALUES ('0190a5e0-0000-7000-8000-000000000001', 'Old trip plans', 0, 'personal',
		'2025-06-01T10:00:00Z', '2025-06-01T10:00:05Z', 'idle');
INSERT INTO messages(id, session_id, seq, role, content, model, intent, intent_confidence, created_at)
	VALUES ('0190a5e0-0000-7000-8000-000000000002', '0190a5e0-0000-7000-8000-000000000001', 1, 'user',
		'Which ferry goes to Hydra before noon?', '', 'question', 0.91, '2025-06-01T10:00:00Z'),
	       ('0190a5e0-0000-7000-8000-000000000003', '0190a5e0-0000-7000-8000-000000000001', 2, 'assistant',
		'The 08:00 ferry from Piraeus reaches Hydra at 09:40.', 'llama3.2:3b', '', 0, '2025-06-01T10:00:05Z');
INSERT INTO messages_fts(rowid, body) SELECT rowid, content FROM messages;
COMMIT;
SQL
	v="$(basename "${migs[-1]}")"
	echo $((10#${v%%_*}))
}
