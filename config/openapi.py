"""OpenAPI for every public API, including plain Django views.

drf-spectacular only documents DRF views. A plain function view decorated with
``@extend_schema(...)`` (which records the schema on the function) is documented here too:
the enumerator hands the generator a stand-in APIView carrying that schema and the
function's docstring. Undecorated plain views stay out of the schema, as before.
"""

from functools import cache

from drf_spectacular.generators import EndpointEnumerator, SchemaGenerator
from rest_framework.views import APIView


def is_documented_function(callback) -> bool:
    return not hasattr(callback, "cls") and "schema" in getattr(callback, "kwargs", {})


@cache
def stand_in_view(function):
    def get(self, request, *args, **kwargs):  # never called: the schema only reads it
        raise NotImplementedError

    # is_documented_function reads it.
    get.kwargs = {"schema": function.kwargs["schema"]}  # type: ignore[attr-defined]
    get.__doc__ = function.__doc__
    attributes = {"get": get, "__doc__": function.__doc__, "authentication_classes": []}
    view_class = type(function.__name__, (APIView,), attributes)
    return view_class.as_view()  # type: ignore[attr-defined]  # an APIView subclass


class PlainViewEnumerator(EndpointEnumerator):
    def should_include_endpoint(self, path, callback):
        return is_documented_function(callback) or super().should_include_endpoint(path, callback)

    def get_allowed_methods(self, callback):
        if is_documented_function(callback):
            return ["GET"]
        return super().get_allowed_methods(callback)

    def _get_api_endpoints(self, patterns, prefix):
        return [
            (path, regex, method, stand_in_view(cb) if is_documented_function(cb) else cb)
            for path, regex, method, cb in super()._get_api_endpoints(patterns, prefix)
        ]


class PortalSchemaGenerator(SchemaGenerator):
    endpoint_inspector_cls = PlainViewEnumerator
