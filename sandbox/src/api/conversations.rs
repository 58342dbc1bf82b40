//! ConversationsApi: see the module docs of `crate::api`.

use crate::api::prelude::*;

impl ConversationsApi for Sandbox {
    async fn list_organization_conversation_clusters(
        &self,
        context: Ctx,
        request: ListOrganizationConversationClustersRequest,
    ) -> Result<ListPage<IssuesCluster>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationConversationClusters"))
    }

    async fn list_organization_conversations(
        &self,
        context: Ctx,
        request: ListOrganizationConversationsRequest,
    ) -> Result<ListPage<Conversation>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationConversations"))
    }

    async fn ingest_organization_conversations(
        &self,
        context: Ctx,
        request: IngestOrganizationConversationsRequest,
    ) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("ingestOrganizationConversations"))
    }

    async fn list_organization_conversation_issues(
        &self,
        context: Ctx,
        request: ListOrganizationConversationIssuesRequest,
    ) -> Result<ListPage<ConversationIssueEntry>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationConversationIssues"))
    }

    async fn get_conversation_issue(
        &self,
        context: Ctx,
        request: GetConversationIssueRequest,
    ) -> Result<ConversationIssueEntry, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getConversationIssue"))
    }

    async fn get_conversation(
        &self,
        context: Ctx,
        request: GetConversationRequest,
    ) -> Result<ConversationDetail, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getConversation"))
    }
}
