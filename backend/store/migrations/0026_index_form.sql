-- The full-text indexes' form (text.SegmentForm): the form the rows of
-- messages_fts, memories_fts and kb_fts were written in. Form 2 indexes a CJK
-- run as its bigrams and its last character, not also every character alone:
-- half the tokens to write. When the form differs from the build's, the
-- composition root writes the three indexes again from their rows (app,
-- upgradeIndexForm) and records the new form. Form 1 is every database before
-- this step.
CREATE TABLE index_form (
    one  INTEGER PRIMARY KEY CHECK (one = 1),
    form INTEGER NOT NULL
);
INSERT INTO index_form(one, form) VALUES (1, 1);
