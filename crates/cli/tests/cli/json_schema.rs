//! A JSON Schema validator for the keywords `docs/trace-schema.json` uses, and no others.
//!
//! Written here rather than taken from the `jsonschema` crate, which cost about 90 s of a
//! clean CI build (of 10 minutes) for one test. It follows draft 2020-12 for `type`,
//! `const`, `minimum`, `required`, `properties`, `additionalProperties` (a Boolean), `items`,
//! `oneOf` and local `$ref`s (`#/$defs/...`). A keyword it does not know makes it refuse the
//! schema, so a schema grown beyond it fails the test instead of validating too little.

use serde_json::Value;

/// Keywords that only annotate: they constrain nothing.
const ANNOTATIONS: [&str; 5] = ["$schema", "$id", "$defs", "title", "description"];

/// A schema document checked for keywords this validator knows.
pub struct Validator {
    root: Value,
}

impl Validator {
    /// Takes the schema, or names the first keyword this validator would not apply.
    pub fn new(root: Value) -> Result<Self, String> {
        check_keywords(&root, "#")?;
        Ok(Self { root })
    }

    /// The places where `instance` breaks the schema; empty when it conforms.
    pub fn errors(&self, instance: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        self.check(&self.root, instance, "", &mut errors);
        errors
    }

    fn resolve(&self, reference: &str) -> &Value {
        let pointer = reference
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("only local $refs are supported: {reference}"));
        self.root
            .pointer(pointer)
            .unwrap_or_else(|| panic!("$ref to nothing: {reference}"))
    }

    fn check(&self, schema: &Value, value: &Value, at: &str, errors: &mut Vec<String>) {
        let Some(schema) = schema.as_object() else {
            return;
        };
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            self.check(self.resolve(reference), value, at, errors);
        }
        if let Some(kind) = schema.get("type").and_then(Value::as_str) {
            let fits = match kind {
                "object" => value.is_object(),
                "array" => value.is_array(),
                "string" => value.is_string(),
                "integer" => value.is_i64() || value.is_u64(),
                "number" => value.is_number(),
                "boolean" => value.is_boolean(),
                "null" => value.is_null(),
                other => panic!("unknown type {other}"),
            };
            if !fits {
                errors.push(format!("{at}: {value} is not of type {kind}"));
                return;
            }
        }
        if let Some(expected) = schema.get("const") {
            if expected != value {
                errors.push(format!("{at}: {value} is not {expected}"));
            }
        }
        if let (Some(minimum), Some(number)) = (
            schema.get("minimum").and_then(Value::as_f64),
            value.as_f64(),
        ) {
            if number < minimum {
                errors.push(format!("{at}: {value} is below {minimum}"));
            }
        }
        if let Some(object) = value.as_object() {
            for name in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let name = name.as_str().unwrap_or_default();
                if !object.contains_key(name) {
                    errors.push(format!("{at}: {name} is missing"));
                }
            }
            let properties = schema.get("properties").and_then(Value::as_object);
            for (name, field) in object {
                match properties.and_then(|p| p.get(name)) {
                    Some(sub) => self.check(sub, field, &format!("{at}/{name}"), errors),
                    None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                        errors.push(format!("{at}: {name} is not allowed"))
                    }
                    None => {}
                }
            }
        }
        if let (Some(items), Some(array)) = (schema.get("items"), value.as_array()) {
            for (i, item) in array.iter().enumerate() {
                self.check(items, item, &format!("{at}/{i}"), errors);
            }
        }
        if let Some(options) = schema.get("oneOf").and_then(Value::as_array) {
            let fitting = options
                .iter()
                .filter(|option| {
                    let mut inner = Vec::new();
                    self.check(option, value, at, &mut inner);
                    inner.is_empty()
                })
                .count();
            if fitting != 1 {
                errors.push(format!("{at}: {value} fits {fitting} of the oneOf schemas"));
            }
        }
    }
}

/// Refuses a keyword that neither constrains as above nor only annotates.
fn check_keywords(schema: &Value, at: &str) -> Result<(), String> {
    const KNOWN: [&str; 9] = [
        "$ref",
        "type",
        "const",
        "minimum",
        "required",
        "properties",
        "additionalProperties",
        "items",
        "oneOf",
    ];
    let Some(object) = schema.as_object() else {
        return Ok(());
    };
    for (key, sub) in object {
        match key.as_str() {
            "additionalProperties" if !sub.is_boolean() => {
                return Err(format!("{at}: additionalProperties must be a Boolean here"))
            }
            "properties" | "$defs" => {
                for (name, inner) in sub.as_object().into_iter().flatten() {
                    check_keywords(inner, &format!("{at}/{key}/{name}"))?;
                }
            }
            "oneOf" => {
                for (i, inner) in sub.as_array().into_iter().flatten().enumerate() {
                    check_keywords(inner, &format!("{at}/oneOf/{i}"))?;
                }
            }
            "items" => check_keywords(sub, &format!("{at}/items"))?,
            k if KNOWN.contains(&k) || ANNOTATIONS.contains(&k) => {}
            k => return Err(format!("{at}: the keyword {k} is not supported")),
        }
    }
    Ok(())
}
