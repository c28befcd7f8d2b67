from django.urls import path

from foundation import views

app_name = "foundation"

urlpatterns = [
    path("about/", views.AboutView.as_view(), name="about"),
    path("about/board/", views.BoardView.as_view(), name="board"),
    path("about/staff/", views.StaffView.as_view(), name="staff"),
    path("about/governance/", views.GovernanceView.as_view(), name="governance"),
    path("about/governance/<slug:slug>/", views.document, name="document"),
    path("about/governance/<slug:slug>/v<int:number>/", views.document, name="document-version"),
    path(
        "about/governance/<slug:slug>/v<int:number>/diff/",
        views.document_diff,
        name="document-diff",
    ),
    path(
        "about/governance/<slug:slug>/v<int:number>/comment/",
        views.document_comment,
        name="document-comment",
    ),
    path("about/meetings/", views.MeetingArchiveView.as_view(), name="meetings"),
    path("about/meetings/<int:pk>/", views.MeetingView.as_view(), name="meeting"),
    path("news/", views.NewsListView.as_view(), name="news-list"),
    path("news/feed/", views.NewsFeed(), name="news-feed"),
    path("news/category/<slug:slug>/", views.CategoryNewsView.as_view(), name="news-category"),
    path("news/tag/<slug:slug>/", views.TagNewsView.as_view(), name="news-tag"),
    path("news/<slug:slug>/", views.NewsDetailView.as_view(), name="news-detail"),
    path("news/<slug:slug>/comment/", views.news_comment, name="news-comment"),
    path("contact/", views.contact, name="contact"),
]
