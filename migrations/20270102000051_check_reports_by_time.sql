-- Delivery insights (issue 50): the check pass rate reads the reports made in a time range,
-- of every repository, in one query.
CREATE INDEX IF NOT EXISTS check_reports_by_time ON check_reports (reported_at, id);
