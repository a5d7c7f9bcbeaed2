-- Lead and result queries (MCP tools, REST GET /leads): keyset pages newest first and date windows
-- whose cost does not grow with the account's size. "Live" rows (not test mode, not quarantined)
-- are what a firm sees by default, so they get partial indexes of their own; includeTest=true
-- reads the full index. Filters on status, calculator or state walk an index that starts with
-- the filter, so a rare value does not scan the whole account.

CREATE INDEX leads_account_page_idx ON leads (account_id, created_at DESC, id DESC);
CREATE INDEX leads_live_page_idx ON leads (account_id, created_at DESC, id DESC)
  WHERE test = false AND quarantined_at IS NULL;
CREATE INDEX leads_live_status_idx ON leads (account_id, status, created_at DESC, id DESC)
  WHERE test = false AND quarantined_at IS NULL;
CREATE INDEX leads_live_calculator_idx ON leads (account_id, calculator, created_at DESC, id DESC)
  WHERE test = false AND quarantined_at IS NULL;
CREATE INDEX leads_live_state_idx ON leads (account_id, state, created_at DESC, id DESC)
  WHERE test = false AND quarantined_at IS NULL;

CREATE INDEX calculation_results_page_idx ON calculation_results (account_id, created_at DESC, id DESC);
CREATE INDEX calculation_results_live_page_idx ON calculation_results (account_id, created_at DESC, id DESC)
  WHERE test = false;
CREATE INDEX calculation_results_live_calculator_idx ON calculation_results (account_id, calculator, created_at DESC, id DESC)
  WHERE test = false;
CREATE INDEX calculation_results_live_state_idx ON calculation_results (account_id, state, created_at DESC, id DESC)
  WHERE test = false;

-- Lead statistics that do not grow with the account: live leads counted per account, UTC day,
-- calculator and status, kept by statement-level triggers (every writer, whatever its code path,
-- keeps them right: inserts, status changes, test/quarantine flags, deletes). get_directory_stats
-- sums at most a few rows per day instead of reading every lead.
CREATE TABLE lead_daily_counts (
  account_id text NOT NULL,
  day date NOT NULL,
  calculator text NOT NULL,
  status text NOT NULL,
  leads integer NOT NULL,
  PRIMARY KEY (account_id, day, calculator, status)
);

INSERT INTO lead_daily_counts (account_id, day, calculator, status, leads)
  SELECT account_id, (created_at AT TIME ZONE 'UTC')::date, calculator, status, count(*)
  FROM leads WHERE test = false AND quarantined_at IS NULL
  GROUP BY 1, 2, 3, 4;

CREATE FUNCTION lead_daily_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO lead_daily_counts AS c (account_id, day, calculator, status, leads)
      SELECT account_id, (created_at AT TIME ZONE 'UTC')::date, calculator, status, -count(*)
      FROM old_rows WHERE test = false AND quarantined_at IS NULL
      GROUP BY 1, 2, 3, 4
      ON CONFLICT (account_id, day, calculator, status) DO UPDATE SET leads = c.leads + excluded.leads;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO lead_daily_counts AS c (account_id, day, calculator, status, leads)
      SELECT account_id, (created_at AT TIME ZONE 'UTC')::date, calculator, status, count(*)
      FROM new_rows WHERE test = false AND quarantined_at IS NULL
      GROUP BY 1, 2, 3, 4
      ON CONFLICT (account_id, day, calculator, status) DO UPDATE SET leads = c.leads + excluded.leads;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER leads_daily_counts_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_daily_counts_apply();
CREATE TRIGGER leads_daily_counts_update AFTER UPDATE ON leads
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_daily_counts_apply();
CREATE TRIGGER leads_daily_counts_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_daily_counts_apply();
