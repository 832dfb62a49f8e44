-- Small images of a read document's first pages (docs/documents.md, "Previews"), made by the worker's
-- reader for the console, sealed like the reading. Apart from it, since a case using a reading never
-- needs them; null for readings made before they existed. Deleted with their reading.
ALTER TABLE document_readings ADD COLUMN previews_sealed text;
