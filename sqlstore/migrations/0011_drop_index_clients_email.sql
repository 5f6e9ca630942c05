-- Clients are found by e-mail ignoring case (clients_email_lower, for
-- online booking); the case-sensitive index served no query and slowed
-- every insert.
DROP INDEX clients_email;
