-- Where consent was given (issue 20): the host page's origin and path (no query string, no
-- fragment) as the page reported it through the loader's handshake. Not verified by the server
-- beyond the embed session's origin, so it is named "as reported by the page" wherever it is shown.
-- Null for leads and results stored before the loader reported it. The same value serves per-page
-- statistics later, so it lives on both tables.
ALTER TABLE leads ADD COLUMN page text;
ALTER TABLE calculation_results ADD COLUMN page text;
