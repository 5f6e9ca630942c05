-- The hosted form page finds a form by its id alone (the page has no API
-- key; the form's unguessable id is its credential). Ids are globally
-- unique, and this index makes that lookup one probe instead of a scan.
CREATE UNIQUE INDEX forms_by_id ON forms (id);
