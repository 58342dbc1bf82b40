//! Git synchronization (Part C §2.7, §4.4), recorded, not performed: the sandbox runs no
//! Git. An import or export is stored as a job (kind `git-job`, scope the space's id) with
//! its request, and the space's Git information is what the last job recorded. `timestamp`
//! orders jobs: one older than the space's last job is refused as a refused state change (400),
//! which is how the documents say timestamps keep the service and the repository in order.

use crate::api::prelude::*;
use crate::domain::kinds::{GIT_INFO, GIT_JOB, SPACE};

fn record(tx: &Tx, user: &User, space: &str, direction: &str, body: Value) -> Result<(), ApiError> {
    let row = found(tx, SPACE, space, user, Role::Edit)?;
    let timestamp_of = |v: &Value| v["timestamp"].as_str().and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok());
    let last = tx.all(GIT_JOB.name, space)?.last().and_then(|job| timestamp_of(&job.data["request"]));
    if let (Some(new), Some(last)) = (timestamp_of(&body), last)
        && new < last
    {
        return Err(ApiError::bad_request(format!(
            "a Git import or export with a later timestamp already ran for space {space}"
        )));
    }
    let id = tx.new_id(GIT_JOB.prefix)?;
    tx.insert(
        GIT_JOB.name,
        &id,
        &row.org,
        space,
        &json!({"id": id, "direction": direction, "request": body, "at": timestamp(tx.now())}),
    )?;
    let url = body["url"].as_str().unwrap_or_default();
    let name = url.trim_end_matches(".git").rsplit('/').next().unwrap_or_default();
    let info = json!({"repoName": name, "url": url, "installationProvider": "git", "updatedAt": timestamp(tx.now())});
    if tx.row(GIT_INFO.name, space)?.is_some() {
        tx.put(GIT_INFO.name, space, &info)?;
    } else {
        tx.insert(GIT_INFO.name, space, &row.org, space, &info)?;
    }
    tx.modify(SPACE.name, space, |s| s["gitSync"] = info.clone())?;
    Ok(())
}

impl GitApi for Sandbox {
    async fn import_space_from_git(&self, context: Ctx, request: ImportSpaceFromGitRequest) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| record(tx, &context.principal, &request.space_id, "import", encode(&request.body)))
            .await
    }

    async fn export_space_to_git(&self, context: Ctx, request: ExportSpaceToGitRequest) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| record(tx, &context.principal, &request.space_id, "export", encode(&request.body)))
            .await
    }

    async fn get_space_git_info(
        &self,
        context: Ctx,
        request: GetSpaceGitInfoRequest,
    ) -> Result<SpaceGitInfo, ApiError> {
        self.store()
            .read_async(move |tx| {
                found(tx, SPACE, &request.space_id, &context.principal, Role::Read)?;
                let info = tx.row(GIT_INFO.name, &request.space_id)?.map_or_else(|| json!({}), |row| row.data);
                decode("git info", info)
            })
            .await
    }

    async fn delete_space_git_legacy_installation(
        &self,
        context: Ctx,
        request: DeleteSpaceGitLegacyInstallationRequest,
    ) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                found(tx, SPACE, &request.space_id, &context.principal, Role::Admin)?;
                tx.delete(GIT_INFO.name, &request.space_id)?;
                Ok(())
            })
            .await
    }
}
