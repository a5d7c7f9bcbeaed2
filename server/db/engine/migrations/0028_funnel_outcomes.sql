-- Issue 41: what became of the leads counted in the funnel (contacted, converted, lost by the lead's
-- creation day) kept as counters in funnel_daily, so the funnel report reads a few aggregate rows
-- instead of every lead created in its period (get_directory_stats at 100,000 leads: 83 / 219 ms
-- p50 for 30 / 365 days). Statement-level triggers on leads keep them exact whatever the writer:
-- a status change, a lead marked test or held (quarantined) or released, a delete (erasure,
-- retention, account closure). Each statement adds its net change per key in one upsert, so two
-- transactions moving the same row's counts add up; a lead's own row lock orders its changes.
-- The conflict key names the license, not the account: a license belongs to one account for its
-- whole life (no code moves one), and a lead without a license is keyed '(none) <account id>'.

ALTER TABLE "funnel_daily" ADD COLUMN "contacted" integer DEFAULT 0 NOT NULL;
ALTER TABLE "funnel_daily" ADD COLUMN "converted" integer DEFAULT 0 NOT NULL;
ALTER TABLE "funnel_daily" ADD COLUMN "lost" integer DEFAULT 0 NOT NULL;

-- decodeURIComponent's twin: '%XX' to bytes, read as UTF-8; NULL where JavaScript throws (a '%' not
-- followed by two hex digits, bytes that are not UTF-8). NUL cannot be text here: it becomes
-- U+0001, which every mask below treats alike (neither digit, letter, hex, '@', '/' nor separator).
-- PARALLEL UNSAFE, here and in the two functions calling it: the EXCEPTION block below starts a
-- subtransaction, which no process may do during a parallel operation, the leader included (a
-- parallel query calling it failed on the first page with a '%'; RESTRICTED fails the same way).
CREATE FUNCTION funnel_uri_decode(raw text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL UNSAFE AS $$
DECLARE
  b bytea := ''::bytea;
  i integer := 1;
  n integer := length(raw);
  c text;
  h text;
BEGIN
  WHILE i <= n LOOP
    c := substr(raw, i, 1);
    IF c = '%' THEN
      h := substr(raw, i + 1, 2);
      IF h !~ '^[0-9A-Fa-f]{2}$' THEN
        RETURN NULL;
      END IF;
      IF h = '00' THEN
        h := '01';
      END IF;
      b := b || decode(h, 'hex');
      i := i + 3;
    ELSE
      b := b || convert_to(c, 'UTF8');
      i := i + 1;
    END IF;
  END LOOP;
  BEGIN
    RETURN convert_from(b, 'UTF8');
  EXCEPTION WHEN character_not_in_repertoire OR untranslatable_character THEN
    RETURN NULL;
  END;
END
$$;

-- maskSegment's twin (server/domain/funnel/pages.ts): an e-mail address, a long number or a token.
CREATE FUNCTION funnel_mask_segment(raw text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL UNSAFE AS $$
DECLARE
  s text := raw;
BEGIN
  IF position('%' IN raw) > 0 THEN
    s := coalesce(funnel_uri_decode(raw), raw);
  END IF;
  IF s ~ '^[^/@]+@[^/@]+$' THEN
    RETURN ':email';
  END IF;
  IF s ~ '[0-9]{6,}' THEN
    RETURN ':number';
  END IF;
  IF (s ~ '^[0-9a-fA-F-]{12,}$' AND length(regexp_replace(s, '[^0-9]', '', 'g')) >= 4)
    OR EXISTS (
      SELECT 1 FROM regexp_split_to_table(s, '[-_.~]') AS p
      WHERE p ~ '^[a-zA-Z0-9]{16,}$' AND p ~ '[0-9]' AND p ~ '[a-zA-Z]'
    ) THEN
    RETURN ':token';
  END IF;
  RETURN raw;
END
$$;

-- funnelPage's twin: the page as the funnel counts it, from a page as leads store it (pageOf's
-- shape: origin and path); '' for none. funnel-outcomes.test.ts holds the two to the same answers.
CREATE FUNCTION funnel_page(page text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL UNSAFE AS $$
DECLARE
  m text[];
  seg text;
  masked text[] := '{}';
BEGIN
  IF page IS NULL THEN
    RETURN '';
  END IF;
  m := regexp_match(page, '^(https?://[^/?#]+)(/[^?#]*)?');
  IF m IS NULL OR length(m[1]) + length(coalesce(m[2], '/')) > 2048 THEN
    RETURN '';
  END IF;
  FOREACH seg IN ARRAY string_to_array(coalesce(m[2], '/'), '/') LOOP
    masked := masked || funnel_mask_segment(seg);
  END LOOP;
  RETURN m[1] || array_to_string(masked, '/');
END
$$;

-- What a statement moved: each live lead past `new` counts +1 as it is after and -1 as it was
-- before; a lead that moves nothing (rated again, a note) cancels out below.
CREATE TYPE funnel_outcome_move AS (
  account_id text, license_id text, calculator text, page text, language text, day date,
  status text, sign integer
);

-- Net changes of a statement's leads, upserted in one statement in key order. Static statements
-- (plans cached for the session); a statement that moved no lead past `new` stops at the first.
CREATE FUNCTION funnel_outcomes_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moves funnel_outcome_move[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(ROW(account_id, license_id, calculator, page, language,
        (created_at AT TIME ZONE 'UTC')::date, status, 1)::funnel_outcome_move)
      INTO moves FROM new_rows WHERE test = false AND quarantined_at IS NULL AND status <> 'new';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(ROW(account_id, license_id, calculator, page, language,
        (created_at AT TIME ZONE 'UTC')::date, status, -1)::funnel_outcome_move)
      INTO moves FROM old_rows WHERE test = false AND quarantined_at IS NULL AND status <> 'new';
  ELSE
    SELECT array_agg(m) INTO moves FROM (
      SELECT ROW(account_id, license_id, calculator, page, language,
          (created_at AT TIME ZONE 'UTC')::date, status, 1)::funnel_outcome_move AS m
        FROM new_rows WHERE test = false AND quarantined_at IS NULL AND status <> 'new'
      UNION ALL
      SELECT ROW(account_id, license_id, calculator, page, language,
          (created_at AT TIME ZONE 'UTC')::date, status, -1)::funnel_outcome_move
        FROM old_rows WHERE test = false AND quarantined_at IS NULL AND status <> 'new'
    ) AS moved;
  END IF;
  IF moves IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO funnel_daily AS f
    (account_id, license_id, calculator, page, language, day, test, contacted, converted, lost)
  SELECT * FROM (
    SELECT account_id, license_id, calculator, funnel_page(page) AS counted_page, language, day,
      false AS test, sum(contacted) AS contacted, sum(converted) AS converted, sum(lost) AS lost
    FROM (
      SELECT account_id, coalesce(license_id, '(none) ' || account_id) AS license_id, calculator, page,
        language, day, sum(sign) AS contacted,
        coalesce(sum(sign) FILTER (WHERE status = 'converted'), 0) AS converted,
        coalesce(sum(sign) FILTER (WHERE status = 'lost'), 0) AS lost
      FROM unnest(moves)
      GROUP BY 1, 2, 3, 4, 5, 6
      -- A lead that moved nothing (rated again, a note) cancels out here, before its page is masked.
      HAVING sum(sign) <> 0 OR coalesce(sum(sign) FILTER (WHERE status = 'converted'), 0) <> 0
        OR coalesce(sum(sign) FILTER (WHERE status = 'lost'), 0) <> 0
    ) AS by_page
    GROUP BY account_id, license_id, calculator, counted_page, language, day
    HAVING sum(contacted) <> 0 OR sum(converted) <> 0 OR sum(lost) <> 0
  ) AS moved_rows
  -- Byte order (COLLATE "C"), as addFunnelCounts sorts the flush's rows: every writer of
  -- funnel_daily locks its rows in one order, so none waits on another in a cycle.
  ORDER BY license_id COLLATE "C", day, calculator COLLATE "C", counted_page COLLATE "C",
    language COLLATE "C"
  ON CONFLICT (license_id, day, calculator, page, language, test) DO UPDATE SET
    contacted = f.contacted + excluded.contacted,
    converted = f.converted + excluded.converted,
    lost = f.lost + excluded.lost;
  RETURN NULL;
END
$$;

-- lead_daily_counts (0004) in the same way: one upsert per statement, in key order. Its first form
-- wrote a status change as two upserts, the old status's row then the new one's, so two leads
-- moving in opposite directions (contacted → converted and converted → contacted, same day and
-- calculator) at the same moment locked the two rows in opposite orders and one failed with a
-- deadlock (funnel-outcomes.test.ts's concurrent changes found it). A statement that moves nothing
-- (a lead rated again) now writes nothing.
CREATE OR REPLACE FUNCTION lead_daily_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO lead_daily_counts AS c (account_id, day, calculator, status, leads)
      SELECT account_id, (created_at AT TIME ZONE 'UTC')::date, calculator, status, count(*)
      FROM new_rows WHERE test = false AND quarantined_at IS NULL
      GROUP BY 1, 2, 3, 4
      ORDER BY 1, 2, 3, 4
      ON CONFLICT (account_id, day, calculator, status) DO UPDATE SET leads = c.leads + excluded.leads;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO lead_daily_counts AS c (account_id, day, calculator, status, leads)
      SELECT account_id, (created_at AT TIME ZONE 'UTC')::date, calculator, status, -count(*)
      FROM old_rows WHERE test = false AND quarantined_at IS NULL
      GROUP BY 1, 2, 3, 4
      ORDER BY 1, 2, 3, 4
      ON CONFLICT (account_id, day, calculator, status) DO UPDATE SET leads = c.leads + excluded.leads;
  ELSE
    INSERT INTO lead_daily_counts AS c (account_id, day, calculator, status, leads)
      SELECT account_id, (created_at AT TIME ZONE 'UTC')::date, calculator, status, sum(sign)
      FROM (
        SELECT account_id, created_at, calculator, status, 1 AS sign FROM new_rows
          WHERE test = false AND quarantined_at IS NULL
        UNION ALL
        SELECT account_id, created_at, calculator, status, -1 FROM old_rows
          WHERE test = false AND quarantined_at IS NULL
      ) AS moved
      GROUP BY 1, 2, 3, 4
      HAVING sum(sign) <> 0
      ORDER BY 1, 2, 3, 4
      ON CONFLICT (account_id, day, calculator, status) DO UPDATE SET leads = c.leads + excluded.leads;
  END IF;
  RETURN NULL;
END
$$;

-- No lead changes between the backfill and the triggers (writers wait for this transaction).
LOCK TABLE leads IN SHARE ROW EXCLUSIVE MODE;

INSERT INTO funnel_daily AS f
  (account_id, license_id, calculator, page, language, day, test, contacted, converted, lost)
SELECT account_id, license_id, calculator, funnel_page(page) AS counted_page, language, day, false,
  sum(contacted), sum(converted), sum(lost)
FROM (
  SELECT account_id, coalesce(license_id, '(none) ' || account_id) AS license_id, calculator, page,
    language, (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS contacted,
    count(*) FILTER (WHERE status = 'converted') AS converted,
    count(*) FILTER (WHERE status = 'lost') AS lost
  FROM leads
  WHERE test = false AND quarantined_at IS NULL AND status <> 'new'
  GROUP BY 1, 2, 3, 4, 5, 6
) AS by_page
GROUP BY account_id, license_id, calculator, counted_page, language, day
ORDER BY license_id, day, calculator, counted_page, language
ON CONFLICT (license_id, day, calculator, page, language, test) DO UPDATE SET
  contacted = f.contacted + excluded.contacted,
  converted = f.converted + excluded.converted,
  lost = f.lost + excluded.lost;

CREATE TRIGGER leads_funnel_outcomes_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION funnel_outcomes_apply();
CREATE TRIGGER leads_funnel_outcomes_update AFTER UPDATE ON leads
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION funnel_outcomes_apply();
CREATE TRIGGER leads_funnel_outcomes_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION funnel_outcomes_apply();
