//! CommentsApi: see the module docs of `crate::api`.

use crate::api::prelude::*;

impl CommentsApi for Sandbox {
    async fn list_space_comments(
        &self,
        context: Ctx,
        request: ListSpaceCommentsRequest,
    ) -> Result<ListPage<Comment>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listSpaceComments"))
    }

    async fn create_space_comment(
        &self,
        context: Ctx,
        request: CreateSpaceCommentRequest,
    ) -> Result<Comment, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createSpaceComment"))
    }

    async fn get_space_comment(&self, context: Ctx, request: GetSpaceCommentRequest) -> Result<Comment, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getSpaceComment"))
    }

    async fn update_space_comment(
        &self,
        context: Ctx,
        request: UpdateSpaceCommentRequest,
    ) -> Result<Comment, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateSpaceComment"))
    }

    async fn delete_space_comment(&self, context: Ctx, request: DeleteSpaceCommentRequest) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteSpaceComment"))
    }

    async fn create_space_comment_reply(
        &self,
        context: Ctx,
        request: CreateSpaceCommentReplyRequest,
    ) -> Result<CommentReply, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createSpaceCommentReply"))
    }

    async fn get_space_comment_reply(
        &self,
        context: Ctx,
        request: GetSpaceCommentReplyRequest,
    ) -> Result<CommentReply, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getSpaceCommentReply"))
    }

    async fn update_space_comment_reply(
        &self,
        context: Ctx,
        request: UpdateSpaceCommentReplyRequest,
    ) -> Result<CommentReply, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateSpaceCommentReply"))
    }

    async fn delete_space_comment_reply(
        &self,
        context: Ctx,
        request: DeleteSpaceCommentReplyRequest,
    ) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteSpaceCommentReply"))
    }

    async fn list_space_commenters(
        &self,
        context: Ctx,
        request: ListSpaceCommentersRequest,
    ) -> Result<ListPage<Member>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listSpaceCommenters"))
    }

    async fn list_change_request_comments(
        &self,
        context: Ctx,
        request: ListChangeRequestCommentsRequest,
    ) -> Result<ListPage<Comment>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listChangeRequestComments"))
    }

    async fn create_change_request_comment(
        &self,
        context: Ctx,
        request: CreateChangeRequestCommentRequest,
    ) -> Result<Comment, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createChangeRequestComment"))
    }

    async fn get_change_request_comment(
        &self,
        context: Ctx,
        request: GetChangeRequestCommentRequest,
    ) -> Result<Comment, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getChangeRequestComment"))
    }

    async fn update_change_request_comment(
        &self,
        context: Ctx,
        request: UpdateChangeRequestCommentRequest,
    ) -> Result<Comment, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateChangeRequestComment"))
    }

    async fn delete_change_request_comment(
        &self,
        context: Ctx,
        request: DeleteChangeRequestCommentRequest,
    ) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteChangeRequestComment"))
    }

    async fn create_change_request_comment_reply(
        &self,
        context: Ctx,
        request: CreateChangeRequestCommentReplyRequest,
    ) -> Result<CommentReply, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createChangeRequestCommentReply"))
    }

    async fn list_change_request_comment_replies(
        &self,
        context: Ctx,
        request: ListChangeRequestCommentRepliesRequest,
    ) -> Result<ListPage<CommentReply>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listChangeRequestCommentReplies"))
    }
}
