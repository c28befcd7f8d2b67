from typing import cast

from django import forms

from core.markdown import has_visible_text, render_comment
from foundation.models import ContactMessage

HONEYPOT_FIELD = "website_url"


class HoneypotMixin(forms.Form):
    """A field people never see and bots fill in; a filled one makes the form invalid."""

    website_url = forms.CharField(
        required=False,
        label="Leave this field empty",
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )

    def clean_website_url(self):
        if self.cleaned_data.get(HONEYPOT_FIELD):
            raise forms.ValidationError("This field must be left empty.")
        return ""


class CommentForm(HoneypotMixin, forms.Form):
    body = forms.CharField(
        label="Your comment",
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="Markdown is supported. Be kind; staff may hide comments that break the code of conduct.",
    )

    def clean_body(self):
        body = self.cleaned_data["body"]
        if not has_visible_text(render_comment(body)):
            raise forms.ValidationError(
                "Your comment has no text once HTML and formatting are removed "
                "(comments cannot contain HTML). Please write what you want to say.",
                code="empty",
            )
        return body


class ContactForm(HoneypotMixin, forms.ModelForm):
    class Meta:
        model = ContactMessage
        fields = ["topic", "name", "email", "organisation", "message"]
        widgets = {"message": forms.Textarea(attrs={"rows": 8})}
        labels = {"topic": "What is it about?", "organisation": "Organisation (optional)"}


class DocumentCommentForm(CommentForm):
    """A comment on a governance document, pointing at the section it discusses."""

    section = forms.ChoiceField(label="Section it discusses", required=False)

    def __init__(self, *args, sections=(), **kwargs):
        super().__init__(*args, **kwargs)
        section = cast(forms.ChoiceField, self.fields["section"])
        section.choices = [("", "The whole document"), *sections]
        # The section first, then the comment.
        self.order_fields(["section", "body"])
