"""tractor-referee HTTP layer: Flask app, marshmallow schemas, problem+json."""
