-- The container (Instagram) a publication's post call was made with: after a worker dies mid-call, its status
-- tells whether the post was made, and a retry publishes that same container, which Instagram posts at most once.
ALTER TABLE "publications" ADD COLUMN "call_ref" text;