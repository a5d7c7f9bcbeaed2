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
