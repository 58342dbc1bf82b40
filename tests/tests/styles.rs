//! Values beyond scalars on the wire, through the generated server and client of
//! `tests/fixtures/valid/styles`: a form body of nested objects, maps and lists (Stripe's
//! `items[0][price]=x`, `metadata[key]=v`), the exact bytes the client sends, what the
//! handler receives, and the violations of a bad form named by their keys in the form; and
//! query lists in each style OpenAPI gives them (`ids=1,2`, `tags=a%20b`, `codes=a|b`,
//! `expand=a&expand=b`); and object query parameters, in brackets (`created[gt]=1`,
//! `customer[address][line1]=x`: `deepObject`) and exploded (`number=2&size=10`: `form`); and
//! parameters written as JSON (OpenAPI's `content`: `bounds={"gt":1}`), in the query and a header;
//! and parameters of union types, in the path (`/checkouts/by/7`) and the query (`created=5` or
//! `created[gt]=1`); and query parameters a client may send empty (`limit=`); and lists in the
//! path (`/checkouts/picked/1,2/payment`).

use apigen_runtime::client::CallBody;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use styles_client::{Client, CreateCheckoutContentType, RetryPolicy};
use styles_server::types::{
    Address, Checkout, CheckoutForm, Count, CreateNoteBody, Created, CustomerDetails, FileLink, Filter,
    FindNoteContentType, Key, LineItem, Lookup, Mode, Note, PageQuery, Picked, Position, Range, Report, Search,
};
use styles_server::{
    ApiError, Authenticator, CheckoutAtRequest, CheckoutsApi, Context, CountCheckoutsRequest, CreateCheckoutRequest,
    CreateNoteRequest, Credential, ExpireCheckoutRequest, FilterCheckoutsRequest, FindNoteRequest, HoldCheckoutRequest,
    LookupCheckoutRequest, PickCheckoutsRequest, ReportCheckoutsRequest, SearchCheckoutsRequest, Secret,
};

/// The service: answers the checkout it was given.
#[derive(Default, Clone)]
struct Echo;

impl Authenticator for Echo {
    type Principal = ();

    async fn authenticate(&self, credential: Credential<'_>) -> Result<(), ApiError> {
        match credential.secret {
            Secret::Bearer("tok") => Ok(()),
            _ => Err(ApiError::unauthorized("unknown token")),
        }
    }
}

impl CheckoutsApi for Echo {
    async fn create_checkout(&self, _: Context<()>, request: CreateCheckoutRequest) -> Result<Checkout, ApiError> {
        let form = request.body;
        Ok(Checkout {
            id: "cs_1".into(),
            customer: form.customer,
            mode: form.mode,
            items: form.items,
            metadata: form.metadata.unwrap_or_default(),
            shipping: form.shipping,
            expand: form.expand.unwrap_or_default(),
            paid: form.paid.unwrap_or(false),
        })
    }

    async fn expire_checkout(&self, _: Context<()>, _: ExpireCheckoutRequest) -> Result<(), ApiError> {
        Ok(())
    }

    async fn hold_checkout(&self, _: Context<()>, _: HoldCheckoutRequest) -> Result<(), ApiError> {
        Ok(())
    }

    async fn create_note(&self, _: Context<()>, request: CreateNoteRequest) -> Result<Note, ApiError> {
        Ok(Note { text: request.body.text, link: request.body.link })
    }

    async fn search_checkouts(&self, _: Context<()>, request: SearchCheckoutsRequest) -> Result<Search, ApiError> {
        Ok(Search {
            ids: request.ids,
            tags: request.tags,
            codes: request.codes,
            expand: request.expand,
            include: request.include,
        })
    }

    async fn count_checkouts(&self, _: Context<()>, request: CountCheckoutsRequest) -> Result<Count, ApiError> {
        Ok(Count { limit: request.limit, mode: request.mode, q: request.q })
    }

    async fn pick_checkouts(&self, _: Context<()>, request: PickCheckoutsRequest) -> Result<Picked, ApiError> {
        Ok(Picked { ids: request.ids, modes: request.modes })
    }

    async fn checkout_at(&self, _: Context<()>, request: CheckoutAtRequest) -> Result<Position, ApiError> {
        Ok(Position { day: request.day, rev: request.rev, seen_rev: request.seen_rev })
    }

    async fn find_note(&self, _: Context<()>, request: FindNoteRequest) -> Result<Option<Note>, ApiError> {
        Ok((request.text == "kept").then_some(Note { text: request.text, link: None }))
    }

    async fn lookup_checkout(&self, _: Context<()>, request: LookupCheckoutRequest) -> Result<Lookup, ApiError> {
        Ok(Lookup { key: request.key, created: request.created, label: request.label, delay: request.delay })
    }

    async fn report_checkouts(&self, _: Context<()>, request: ReportCheckoutsRequest) -> Result<Report, ApiError> {
        let ids = (!request.ids.is_empty()).then_some(request.ids);
        Ok(Report { bounds: request.bounds, ids, customer: request.x_customer })
    }

    async fn filter_checkouts(&self, _: Context<()>, request: FilterCheckoutsRequest) -> Result<Filter, ApiError> {
        Ok(Filter {
            created: request.created,
            customer: request.customer,
            metadata: request.metadata,
            page: request.page,
        })
    }
}

async fn start() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(apigen_runtime::listener::serve(listener, styles_server::router(Echo), Default::default()));
    format!("http://{address}")
}

fn client(base: &str) -> Client {
    Client::builder(base).bearer("tok").retry(RetryPolicy::none()).build().unwrap()
}

fn form() -> CheckoutForm {
    CheckoutForm {
        customer: "cus_1".into(),
        mode: Mode::Payment,
        items: vec![
            LineItem {
                price: "price_a".into(),
                quantity: Some(2),
                tax_rates: Some(vec!["txr_1".into(), "txr_2".into()]),
            },
            LineItem { price: "price_b".into(), quantity: None, tax_rates: Some(Vec::new()) },
        ],
        metadata: Some(BTreeMap::from([("order".into(), "6735".into()), ("a b&c".into(), "x=y".into())])),
        shipping: Some(Address { line1: "1 Main St".into(), city: None }),
        expand: Some(vec!["customer".into(), "line_items".into()]),
        paid: Some(false),
    }
}

/// The status and the violations of an answer, as `(path, message)`.
async fn violations(base: &str, body: &'static str) -> (u16, Vec<(String, String)>) {
    let response = styles_client::http_client_builder()
        .build()
        .unwrap()
        .post(format!("{base}/checkouts"))
        .bearer_auth("tok")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let body: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    let found = body["error"]["violations"].as_array().cloned().unwrap_or_default();
    let found =
        found.iter().map(|v| (v["path"].as_str().unwrap().to_owned(), v["message"].as_str().unwrap().to_owned()));
    (status, found.collect())
}

#[tokio::test]
async fn a_nested_form_travels_in_brackets_and_arrives_whole() {
    let base = start().await;
    let client = client(&base);
    match client.checkouts().create(form()).call().unwrap().body {
        Some(CallBody::Raw { content_type, bytes }) => {
            assert_eq!(content_type, "application/x-www-form-urlencoded");
            let expected = concat!(
                "customer=cus_1&mode=payment",
                "&items%5B0%5D%5Bprice%5D=price_a&items%5B0%5D%5Bquantity%5D=2",
                "&items%5B0%5D%5Btax_rates%5D%5B0%5D=txr_1&items%5B0%5D%5Btax_rates%5D%5B1%5D=txr_2",
                "&items%5B1%5D%5Bprice%5D=price_b&items%5B1%5D%5Btax_rates%5D=",
                "&metadata%5Ba+b%26c%5D=x%3Dy&metadata%5Border%5D=6735",
                "&shipping%5Bline1%5D=1+Main+St",
                "&expand%5B0%5D=customer&expand%5B1%5D=line_items&paid=false",
            );
            assert_eq!(std::str::from_utf8(&bytes).unwrap(), expected);
        }
        other => panic!("a form, not {other:?}"),
    }
    let checkout = client.checkouts().create(form()).send().await.unwrap();
    let sent = form();
    assert_eq!(checkout.items, sent.items, "lists of objects, an empty list kept empty");
    assert_eq!(Some(checkout.metadata.clone()), sent.metadata);
    assert_eq!(checkout.shipping, sent.shipping);
    assert_eq!(Some(checkout.expand.clone()), sent.expand);
    assert_eq!((&checkout.mode, checkout.paid), (&Mode::Payment, false));
    let as_json = client
        .checkouts()
        .create(form())
        .content_type(CreateCheckoutContentType::ApplicationJson)
        .send()
        .await
        .unwrap();
    assert_eq!(as_json, checkout, "the same body as JSON");
}

#[tokio::test]
async fn a_form_body_of_no_fields_refuses_each_field_it_is_given() {
    let base = start().await;
    let http = styles_client::http_client_builder().build().unwrap();
    let expire = |body: &'static str| {
        let request = http.delete(format!("{base}/checkouts/c1")).bearer_auth("tok");
        let request = if body.is_empty() {
            request
        } else {
            request.header("content-type", "application/x-www-form-urlencoded").body(body)
        };
        request.send()
    };
    assert_eq!(expire("").await.unwrap().status(), 204, "no body");
    let (status, found) = violations_of(expire("x-unknown=42&y=1").await.unwrap()).await;
    let found: Vec<(&str, &str)> = found.iter().map(|(p, m)| (p.as_str(), m.as_str())).collect();
    assert_eq!(
        (status, found),
        (400, vec![("/x-unknown", "is not a field of this form"), ("/y", "is not a field of this form")])
    );
    client(&base).checkouts().expire("c1").send().await.unwrap();
}

#[tokio::test]
async fn an_optional_form_body_is_absent_when_nothing_is_sent_and_a_form_when_one_is() {
    let base = start().await;
    let http = styles_client::http_client_builder().build().unwrap();
    let hold = |content_type: Option<&'static str>, body: &'static str| {
        let request = http.post(format!("{base}/checkouts/c1/hold")).bearer_auth("tok").body(body);
        match content_type {
            Some(content_type) => request.header("content-type", content_type),
            None => request,
        }
        .send()
    };
    assert_eq!(hold(None, "").await.unwrap().status(), 204, "no body");
    let form = Some("application/x-www-form-urlencoded");
    assert_eq!(hold(form, "until=noon&reason=stock").await.unwrap().status(), 204);
    let (status, found) = violations_of(hold(form, "").await.unwrap()).await;
    let found: Vec<(&str, &str)> = found.iter().map(|(p, m)| (p.as_str(), m.as_str())).collect();
    assert_eq!((status, found), (400, vec![("/until", "is required"), ("/reason", "is required")]), "an empty form");
    // A form has no null: a required field that may be null is still required.
    let (status, found) = violations_of(hold(form, "until=noon").await.unwrap()).await;
    let found: Vec<(&str, &str)> = found.iter().map(|(p, m)| (p.as_str(), m.as_str())).collect();
    assert_eq!((status, found), (400, vec![("/reason", "is required")]));
}

#[tokio::test]
async fn every_way_clients_write_lists_is_read() {
    let base = start().await;
    let bodies = [
        // Stripe's SDKs: indexes, and `[]`; brackets unencoded.
        "customer=c&mode=payment&items[0][price]=price_a&items[0][quantity]=3&expand[0]=x&expand[1]=y",
        "customer=c&mode=payment&items[0][price]=price_a&items[0][quantity]=3&expand[]=x&expand[]=y",
        "customer=c&mode=payment&items%5B0%5D%5Bprice%5D=price_a&items%5B0%5D%5Bquantity%5D=3&expand=x&expand=y",
    ];
    for body in bodies {
        let response = styles_client::http_client_builder()
            .build()
            .unwrap()
            .post(format!("{base}/checkouts"))
            .bearer_auth("tok")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 201, "{body}");
        let checkout: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
        assert_eq!(checkout["items"], json!([{"price": "price_a", "quantity": 3}]), "{body}");
        assert_eq!(checkout["expand"], json!(["x", "y"]), "{body}");
    }
}

#[tokio::test]
async fn a_bad_form_names_every_violation_by_its_key() {
    let base = start().await;
    let bad = "mode=refund&items[0][price]=nope&items[0][quantity]=two&items[1][quantity]=0\
               &metadata[k][deep]=1&shipping[city]=Paris&paid=maybe&extra=1";
    // As for JSON, what does not decode is reported first (a closed enumeration's value is
    // checked once the body decodes).
    let expected = [
        ("customer", "is required"),
        ("items[0][quantity]", "expected an integer, found \"two\""),
        ("items[1][price]", "is required"),
        ("metadata[k]", "expected a string, found an object"),
        ("shipping[line1]", "is required"),
        ("paid", "expected `true` or `false`, found \"maybe\""),
        ("extra", "is not a field of this object"),
    ];
    let (status, found) = violations(&base, bad).await;
    let expected: Vec<(String, String)> = expected.iter().map(|(p, m)| (p.to_string(), m.to_string())).collect();
    assert_eq!((status, found), (400, expected));

    // Decoded, then checked against the spec's constraints, named the same way.
    let (status, found) = violations(&base, "customer=c&mode=refund&items[0][price]=nope&items[0][quantity]=0").await;
    let expected = [
        ("mode", "\"refund\" is not one of: payment, subscription"),
        ("items[0][price]", "must match the pattern ^price_[a-z0-9]+$"),
        ("items[0][quantity]", "must be at least 1 (found 0)"),
    ];
    let expected: Vec<(String, String)> = expected.iter().map(|(p, m)| (p.to_string(), m.to_string())).collect();
    assert_eq!((status, found), (400, expected));

    // A key given both as a value and with brackets, and an empty `items`.
    let (status, found) = violations(&base, "customer=c&mode=payment&items=&shipping=x&shipping[line1]=y").await;
    let expected = [("shipping[line1]", "is given both as a value and as an object")];
    let expected: Vec<(String, String)> = expected.iter().map(|(p, m)| (p.to_string(), m.to_string())).collect();
    assert_eq!((status, found), (400, expected));
    let (status, found) = violations(&base, "customer=c&mode=payment&items=").await;
    let expected = [("items", "must hold at least 1 items (found 0)")];
    let expected: Vec<(String, String)> = expected.iter().map(|(p, m)| (p.to_string(), m.to_string())).collect();
    assert_eq!((status, found), (400, expected));

    // 900 distinct keys 32 deep (0.13 MiB) made 28,800 objects (12 MiB): past 1024 objects
    // and lists the form is refused whole (tests/body_memory.rs counts what it costs).
    let deep: String = (0..900).map(|i| format!("k{i}{}=1&", "[x]".repeat(32))).collect();
    let (status, found) = violations(&base, deep.leak()).await;
    let expected = vec![(String::new(), "the form's keys make more than 1024 objects and lists".to_owned())];
    assert_eq!((status, found), (400, expected));
}

#[tokio::test]
async fn a_multipart_form_sends_a_nested_field_as_one_json_part() {
    let base = start().await;
    let client = client(&base);
    let note = CreateNoteBody {
        text: "hello".into(),
        link: Some(FileLink { create: true, metadata: Some(BTreeMap::from([("k".into(), "v".into())])) }),
    };
    let call = client.checkouts().create_note("hello").link(note.link.clone().unwrap()).call().unwrap();
    match call.body {
        Some(CallBody::Raw { content_type, bytes }) => {
            let boundary = content_type.strip_prefix("multipart/form-data; boundary=").expect(&content_type).to_owned();
            let part = |name: &str, head: &str, value: &str| {
                format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n{head}\r\n{value}\r\n")
            };
            // OpenAPI's `encoding` default: an object is one `application/json` part, not a
            // part a pair in brackets.
            let expected = [
                part("text", "", "hello"),
                part("link", "Content-Type: application/json\r\n", r#"{"create":true,"metadata":{"k":"v"}}"#),
                format!("--{boundary}--\r\n"),
            ]
            .concat();
            assert_eq!(String::from_utf8_lossy(&bytes), expected);
        }
        other => panic!("a multipart body, not {other:?}"),
    }
    let stored = client.checkouts().create_note("x").body(note.clone()).send().await.unwrap();
    assert_eq!(stored, Note { text: note.text, link: note.link });
}

/// The query string the runtime sends for `query` (as `Core` writes the URL).
fn query_string(query: &[(std::borrow::Cow<'static, str>, String)]) -> String {
    let mut out = form_urlencoded::Serializer::new(String::new());
    out.extend_pairs(query.iter().map(|(k, v)| (k.as_ref(), v.as_str())));
    out.finish()
}

#[tokio::test]
async fn query_lists_travel_in_their_style_both_ways() {
    let base = start().await;
    let client = client(&base);
    let search = || {
        client
            .checkouts()
            .search()
            .ids([1, 22, 333])
            .tags(["a", "b c"])
            .codes(["x", "y"])
            .expand(["customer", "items"])
            .include(["a", "b"])
    };
    let call = search().call();
    assert_eq!(
        query_string(&call.unwrap().query),
        "ids=1%2C22%2C333&tags=a+b+c&codes=x%7Cy&expand=customer&expand=items&include%5B%5D=a&include%5B%5D=b",
        "a space inside an item of a space-delimited list cannot be told apart"
    );
    let found = client.checkouts().search().ids([1, 22, 333]).tags(["a", "b"]).codes(["x", "y"]).send().await.unwrap();
    let expected = Search {
        ids: vec![1, 22, 333],
        tags: vec!["a".into(), "b".into()],
        codes: vec!["x".into(), "y".into()],
        expand: Vec::new(),
        include: Vec::new(),
    };
    assert_eq!(found, expected);
    // Empty lists are left out, and read back empty.
    assert!(client.checkouts().search().call().unwrap().query.is_empty());

    // Unencoded delimiters, as other clients write them, and what does not parse.
    let http = styles_client::http_client_builder().build().unwrap();
    let get = |query: &'static str| http.get(format!("{base}/checkouts?{query}")).bearer_auth("tok").send();
    let response = get("ids=1,2&tags=a%20b&codes=x|y&expand=e&include[1]=b&include[0]=a").await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    let expected =
        json!({"ids": [1, 2], "tags": ["a", "b"], "codes": ["x", "y"], "expand": ["e"], "include": ["a", "b"]});
    assert_eq!(body, expected);
    let response = get("ids=1,two&codes=a|b|c|d").await.unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let body: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    let found: Vec<(&str, &str)> = body["error"]["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["path"].as_str().unwrap(), v["message"].as_str().unwrap()))
        .collect();
    assert_eq!(
        found,
        [("query.ids", "expected an integer, found \"two\""), ("query.codes", "must hold at most 3 items (found 4)")]
    );
    // `tags` needs an item when given: given no key it is absent; `tags=` is the empty list.
    assert_eq!(get("ids=1").await.unwrap().status().as_u16(), 200);
    let (status, found) = violations_of(get("ids=1&tags=").await.unwrap()).await;
    let found: Vec<(&str, &str)> = found.iter().map(|(p, m)| (p.as_str(), m.as_str())).collect();
    assert_eq!((status, found), (400, vec![("query.tags", "must hold at least 1 items (found 0)")]));
}

/// The violations of a 400 answer, as (path, message).
async fn violations_of(response: apigen_runtime::codegen::client::reqwest::Response) -> (u16, Vec<(String, String)>) {
    let status = response.status().as_u16();
    let body: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    let found = body["error"]["violations"].as_array().cloned().unwrap_or_default();
    let found =
        found.iter().map(|v| (v["path"].as_str().unwrap().to_owned(), v["message"].as_str().unwrap().to_owned()));
    (status, found.collect())
}

fn filter() -> Filter {
    Filter {
        created: Some(Range { gt: Some(1), lte: Some(5) }),
        customer: Some(CustomerDetails {
            address: Address { line1: "1 Main St".into(), city: None },
            tax_ids: Some(vec!["a".into(), "b".into()]),
        }),
        metadata: Some(BTreeMap::from([("k".to_owned(), "v w".to_owned())])),
        page: Some(PageQuery { number: 2, size: Some(10) }),
    }
}

#[tokio::test]
async fn object_query_parameters_travel_in_brackets_or_exploded_and_arrive_whole() {
    let base = start().await;
    let client = client(&base);
    let wanted = filter();
    let builder = client
        .checkouts()
        .filter()
        .created(wanted.created.clone().unwrap())
        .customer(wanted.customer.clone().unwrap())
        .metadata(wanted.metadata.clone().unwrap())
        .page(wanted.page.clone().unwrap());
    let call = builder.call().unwrap();
    assert_eq!(
        query_string(&call.query),
        "created%5Bgt%5D=1&created%5Blte%5D=5&customer%5Baddress%5D%5Bline1%5D=1+Main+St\
         &customer%5Btax_ids%5D%5B0%5D=a&customer%5Btax_ids%5D%5B1%5D=b&metadata%5Bk%5D=v+w&number=2&size=10",
        "deepObject in brackets, lists below the top with indexes, the exploded object's fields as parameters"
    );
    assert_eq!(builder.send().await.unwrap(), wanted);
    // None given is none received; an empty object is nothing, as OpenAPI writes it (so it
    // arrives absent), and `created=` is an empty string, not an object.
    let none = client.checkouts().filter().send().await.unwrap();
    assert_eq!(none, Filter { created: None, customer: None, metadata: None, page: None });
    let empty = client.checkouts().filter().created(Range { gt: None, lte: None });
    assert_eq!(query_string(&empty.call().unwrap().query), "");
    assert_eq!(empty.send().await.unwrap().created, None);
    let http = styles_client::http_client_builder().build().unwrap();
    let response = http.get(format!("{base}/checkouts/filter?created=")).bearer_auth("tok").send().await.unwrap();
    let (status, found) = violations_of(response).await;
    assert_eq!(
        (status, found),
        (400, vec![("query.created".to_owned(), "expected an object, found the string \"\"".to_owned())])
    );

    // A client validating requests checks an object parameter before sending, naming the
    // key it would send; the first one that fails stops the call (as a body does).
    let strict =
        Client::builder(&base).bearer("tok").retry(RetryPolicy::none()).validate_requests(true).build().unwrap();
    let invalid = strict
        .checkouts()
        .filter()
        .created(Range { gt: None, lte: Some(2000) })
        .page(PageQuery { number: 0, size: None });
    match invalid.send().await {
        Err(styles_client::Error::Invalid(found)) => {
            let found: Vec<(&str, &str)> = found.0.iter().map(|v| (v.path.as_str(), v.message.as_str())).collect();
            assert_eq!(found, [("query.created[lte]", "must be at most 1000 (found 2000)")]);
        }
        other => panic!("a validation error, not {other:?}"),
    }
}

/// deepObject's first bracket names a property, the empty one too: `metadata[]=v` is the key
/// `""` of the map (schemathesis writes a free-form object's key `""` so; it was read as a
/// list and refused, "expected an object, found an array"). Read so only when the brackets
/// read as a list give no valid value: the refusal of a value neither reading takes is the
/// list reading's.
#[tokio::test]
async fn an_empty_first_bracket_of_a_deep_object_is_the_property_named_empty() {
    let base = start().await;
    let http = styles_client::http_client_builder().build().unwrap();
    let get = |query: &'static str| http.get(format!("{base}/checkouts/filter?{query}")).bearer_auth("tok").send();
    for (query, metadata) in [
        ("number=1&metadata[]=v", json!({"": "v"})),
        ("number=1&metadata%5B%5D=v&metadata[k]=w", json!({"": "v", "k": "w"})),
        ("number=1&metadata[k]=w&metadata[]=", json!({"": "", "k": "w"})),
    ] {
        let response = get(query).await.unwrap();
        assert_eq!(response.status().as_u16(), 200, "{query}");
        let body: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
        assert_eq!(body, json!({"metadata": metadata, "page": {"number": 1}}), "{query}");
    }
    let (status, found) = violations_of(get("number=1&metadata[]=a&metadata[]=b").await.unwrap()).await;
    assert_eq!(
        (status, found),
        (400, vec![("query.metadata".to_owned(), "expected an object, found an array".to_owned())])
    );
}

#[tokio::test]
async fn object_query_parameters_from_other_clients_and_their_violations_by_key() {
    let base = start().await;
    let http = styles_client::http_client_builder().build().unwrap();
    let get = |query: &'static str| http.get(format!("{base}/checkouts/filter?{query}")).bearer_auth("tok").send();
    // Empty brackets for a list, unencoded brackets, the exploded object's fields in any order.
    let response =
        get("size=3&customer[tax_ids][]=x&customer[address][line1]=here&number=1&metadata[a]=b").await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    let expected = json!({
        "customer": {"address": {"line1": "here"}, "tax_ids": ["x"]},
        "metadata": {"a": "b"},
        "page": {"number": 1, "size": 3}
    });
    assert_eq!(body, expected);

    // Every problem named by the key the client sent.
    let (status, found) = violations_of(
        get("created[gt]=x&created[lte]=2000&customer[address][city]=y&size=500&metadata[a][b]=c&created[other]=1")
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 400);
    let found: Vec<(&str, &str)> = found.iter().map(|(p, m)| (p.as_str(), m.as_str())).collect();
    assert_eq!(
        found,
        [
            ("query.created[gt]", "expected an integer, found \"x\""),
            ("query.created[other]", "is not a field of this object"),
            ("query.customer[address][line1]", "is required"),
            ("query.metadata[a]", "expected a string, found an object"),
            ("query.number", "is required"),
        ]
    );
    // Decoded, then validated: each bound named.
    let (status, found) = violations_of(get("created[lte]=2000&number=0&size=500").await.unwrap()).await;
    assert_eq!(status, 400);
    let found: Vec<(&str, &str)> = found.iter().map(|(p, m)| (p.as_str(), m.as_str())).collect();
    assert_eq!(
        found,
        [
            ("query.created[lte]", "must be at most 1000 (found 2000)"),
            ("query.number", "must be at least 1 (found 0)"),
            ("query.size", "must be at most 100 (found 500)"),
        ]
    );
}

#[tokio::test]
async fn parameters_written_as_json_travel_as_one_json_text_and_arrive_typed() {
    let base = start().await;
    let client = client(&base);
    let customer = CustomerDetails { address: Address { line1: "1 Main St".into(), city: None }, tax_ids: None };
    let report =
        || client.checkouts().report(Range { gt: Some(1), lte: Some(5) }).ids([1, 2]).x_customer(customer.clone());
    let call = report().call().unwrap();
    assert_eq!(query_string(&call.query), "bounds=%7B%22gt%22%3A1%2C%22lte%22%3A5%7D&ids=%5B1%2C2%5D");
    let header = call.headers.iter().find(|(name, _)| name == "X-Customer").map(|(_, value)| value.as_str());
    assert_eq!(header, Some(r#"{"address":{"line1":"1 Main St"}}"#));
    let expected =
        Report { bounds: Range { gt: Some(1), lte: Some(5) }, ids: Some(vec![1, 2]), customer: Some(customer.clone()) };
    assert_eq!(report().send().await.unwrap(), expected);
    // An empty list is left out, and read back empty.
    let bare = client.checkouts().report(Range { gt: None, lte: None });
    assert_eq!(query_string(&bare.call().unwrap().query), "bounds=%7B%7D");
    assert_eq!(bare.send().await.unwrap().ids, None);

    // What other clients send, and every problem named by the parameter and the JSON pointer.
    let http = styles_client::http_client_builder().build().unwrap();
    let get = |query: &'static str, header: Option<&'static str>| {
        let request = http.get(format!("{base}/checkouts/report?{query}")).bearer_auth("tok");
        match header {
            Some(value) => request.header("x-customer", value).send(),
            None => request.send(),
        }
    };
    let response = get(r#"bounds={"gt":2}&ids=[7]"#, Some(r#"{"address":{"line1":"x"}}"#)).await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    assert_eq!(body, json!({"bounds": {"gt": 2}, "ids": [7], "customer": {"address": {"line1": "x"}}}));
    let (status, found) =
        violations_of(get(r#"bounds={"gt":"x","gt":1}&ids=[1,2,3,4]"#, Some(r#"{"address":{}}"#)).await.unwrap()).await;
    assert_eq!(status, 400);
    let found: Vec<(&str, &str)> = found.iter().map(|(p, m)| (p.as_str(), m.as_str())).collect();
    assert_eq!(
        found,
        [
            ("query.bounds/gt", "is given more than once in the object"),
            ("query.ids", "must hold at most 3 items (found 4)"),
            ("header.X-Customer/address/line1", "is required"),
        ]
    );
    let (status, found) = violations_of(get("ids=nope", None).await.unwrap()).await;
    assert_eq!(status, 400);
    let found: Vec<(&str, &str)> = found.iter().map(|(p, m)| (p.as_str(), m.as_str())).collect();
    assert_eq!(
        found,
        [("query.bounds", "is required"), ("query.ids", "is not valid JSON: expected ident at line 1 column 2")]
    );
}

#[tokio::test]
async fn union_parameters_travel_as_the_variant_they_hold_and_arrive_as_the_first_variant_that_fits() {
    let base = start().await;
    let client = client(&base);
    let lookup =
        client.checkouts().lookup(Key::Integer(7)).created(Created::Integer(5)).label(Key::String("x y".into()));
    let call = lookup.call().unwrap();
    assert_eq!((call.path.as_str(), query_string(&call.query).as_str()), ("/checkouts/by/7", "created=5&label=x+y"));
    assert_eq!(
        lookup.send().await.unwrap(),
        Lookup {
            key: Key::Integer(7),
            created: Some(Created::Integer(5)),
            label: Some(Key::String("x y".into())),
            delay: None
        }
    );
    let bounds = Created::Range(Box::new(Range { gt: Some(1), lte: None }));
    let by_name = client.checkouts().lookup(Key::String("spring sale".into())).created(bounds.clone());
    let call = by_name.call().unwrap();
    assert_eq!(
        (call.path.as_str(), query_string(&call.query).as_str()),
        ("/checkouts/by/spring%20sale", "created%5Bgt%5D=1")
    );
    assert_eq!(
        by_name.send().await.unwrap(),
        Lookup { key: Key::String("spring sale".into()), created: Some(bounds), label: None, delay: None }
    );

    // Text fitting the first variant is read as it: a name of digits arrives as a number.
    let http = styles_client::http_client_builder().build().unwrap();
    let get = |target: &'static str| http.get(format!("{base}{target}")).bearer_auth("tok").send();
    let response = get("/checkouts/by/0012?label=12&created[lte]=3").await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    assert_eq!(body, json!({"key": 12, "created": {"lte": 3}, "label": 12}));
    let (status, found) = violations_of(get("/checkouts/by/x?created=soon&created[gt]=1").await.unwrap()).await;
    assert_eq!(status, 400);
    let found: Vec<(&str, &str)> = found.iter().map(|(p, m)| (p.as_str(), m.as_str())).collect();
    assert_eq!(found, [("query.created[gt]", "is given both as a value and as an object")]);
    let (status, found) = violations_of(get("/checkouts/by/x?created=soon").await.unwrap()).await;
    assert_eq!(status, 400);
    let found: Vec<(&str, &str)> = found.iter().map(|(p, m)| (p.as_str(), m.as_str())).collect();
    // The sample of a union travelling as text fits one variant only: `1` would be a number
    // and a name, so the path's sample is a name (OpenAPI's `oneOf` asks for exactly one).
    let openapi: Value = serde_json::from_str(include_str!("../fixtures/generated/styles/openapi.json")).unwrap();
    let params = &openapi["paths"]["/checkouts/by/{key}"]["get"]["parameters"];
    assert_eq!((&params[0]["example"], &params[1]["example"]), (&json!("key"), &json!(1)));
    let message = "matches no variant (Integer: (root): expected an integer, found \"soon\"; Range: (root): expected an object, found the string \"soon\")";
    assert_eq!(found, [("query.created", message)]);

    // Text is the first variant it is valid as: `0` decodes as the closed enumeration's
    // unlisted value too, and is the number; text valid as none is refused by the first
    // variant it decodes as.
    for (delay, read) in [("0", json!(0)), ("minimum", json!("minimum"))] {
        let response = http.get(format!("{base}/checkouts/by/x?delay={delay}")).bearer_auth("tok").send().await;
        let body: Value = serde_json::from_slice(&response.unwrap().bytes().await.unwrap()).unwrap();
        assert_eq!(body["delay"], read, "delay={delay}");
    }
    let (status, found) = violations_of(get("/checkouts/by/x?delay=soon").await.unwrap()).await;
    let found: Vec<(&str, &str)> = found.iter().map(|(p, m)| (p.as_str(), m.as_str())).collect();
    assert_eq!((status, found), (400, vec![("query.delay", "\"soon\" is not one of: minimum")]));
}

#[tokio::test]
async fn a_nullable_body_answers_null_and_arrives_as_none() {
    let base = start().await;
    let client = client(&base);
    let found = client.checkouts().find_note("kept").send().await.unwrap();
    assert_eq!(found, Some(Note { text: "kept".into(), link: None }));
    assert_eq!(client.checkouts().find_note("gone").send().await.unwrap(), None);
    // A `Content-Type` header parameter of a bodiless request is sent and checked.
    let typed = client.checkouts().find_note("kept").content_type_(FindNoteContentType::ApplicationJson);
    let sent: Vec<(String, String)> = typed.call().unwrap().headers;
    assert_eq!(sent, [("Content-Type".to_owned(), "application/json".to_owned())]);
    assert!(typed.send().await.unwrap().is_some());
    let http = styles_client::http_client_builder().build().unwrap();
    let response = http.get(format!("{base}/notes/kept")).bearer_auth("tok").header("content-type", "text/plain");
    let (status, found) = violations_of(response.send().await.unwrap()).await;
    assert_eq!(status, 400);
    assert_eq!(found[0].0, "header.Content-Type");
    let response = http.get(format!("{base}/notes/gone")).bearer_auth("tok").send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    assert_eq!(&response.bytes().await.unwrap()[..], b"null");
    let openapi: Value = serde_json::from_str(include_str!("../fixtures/generated/styles/openapi.json")).unwrap();
    let schema = &openapi["paths"]["/notes/{text}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"];
    assert_eq!(*schema, json!({"anyOf": [{"$ref": "#/components/schemas/Note"}, {"type": "null"}]}));
}

#[tokio::test]
async fn label_and_matrix_path_parameters_carry_their_prefix_both_ways() {
    let base = start().await;
    let client = client(&base);
    let at = client.checkouts().checkout_at(5, "a 1");
    assert_eq!(at.call().unwrap().path, "/checkouts/at/.5/;rev=a%201");
    assert_eq!(at.send().await.unwrap(), Position { day: 5, rev: "a 1".into(), seen_rev: None });
    // `Rev` beside `rev`: each under its own wire name, the query's under its `rust_name`.
    let seen = client.checkouts().checkout_at(5, "a1").seen_rev("a0");
    assert_eq!(seen.call().unwrap().query, [("Rev".into(), "a0".to_owned())]);
    let answer = seen.send_with_response().await.unwrap();
    assert_eq!(answer.body, Position { day: 5, rev: "a1".into(), seen_rev: Some("a0".into()) });
    assert_eq!(serde_json::to_value(&answer.body).unwrap(), json!({"day": 5, "rev": "a1", "Rev": "a0"}));
    let http = styles_client::http_client_builder().build().unwrap();
    let response = http.get(format!("{base}/checkouts/at/5/rev=x")).bearer_auth("tok").send().await.unwrap();
    let (status, found) = violations_of(response).await;
    assert_eq!(status, 400);
    let found: Vec<(&str, &str)> = found.iter().map(|(p, m)| (p.as_str(), m.as_str())).collect();
    assert_eq!(found, [("path.day", "is written `.` and the value"), ("path.rev", "is written `;rev=` and the value")]);
    // A delimiter percent-encoded is data: `%3Brev=a` is no `;rev=` (it gave `rev = "a"`), `%2E5`
    // no `.5`, and an encoded `;` inside the value is the value's.
    let response = http.get(format!("{base}/checkouts/at/%2E5/%3Brev=a")).bearer_auth("tok").send().await.unwrap();
    let (status, found) = violations_of(response).await;
    let found: Vec<(&str, &str)> = found.iter().map(|(p, m)| (p.as_str(), m.as_str())).collect();
    assert_eq!(
        (status, found),
        (
            400,
            vec![
                ("path.day", "is written `.` and the value"),
                ("path.day", "expected an integer, found \".5\""),
                ("path.rev", "is written `;rev=` and the value")
            ]
        )
    );
    let response = http.get(format!("{base}/checkouts/at/.5/;rev=%3Brev=a%2Eb")).bearer_auth("tok").send().await;
    let body: Value = serde_json::from_slice(&response.unwrap().bytes().await.unwrap()).unwrap();
    assert_eq!(body, json!({"day": 5, "rev": ";rev=a.b"}));
    let openapi: Value = serde_json::from_str(include_str!("../fixtures/generated/styles/openapi.json")).unwrap();
    let params = &openapi["paths"]["/checkouts/at/{day}/{rev}"]["get"]["parameters"];
    assert_eq!((&params[0]["style"], &params[1]["style"]), (&json!("label"), &json!("matrix")));
    assert_eq!((&params[2]["name"], &params[2]["x-rust-name"]), (&json!("Rev"), &json!("seen_rev")));
    assert_eq!(openapi["components"]["schemas"]["Position"]["properties"]["Rev"]["x-rust-name"], "seen_rev");
}

#[tokio::test]
async fn hostile_object_and_json_parameters_are_refused_by_name_without_harm() {
    let base = start().await;
    let http = styles_client::http_client_builder().build().unwrap();
    let get = |target: String| http.get(format!("{base}{target}")).bearer_auth("tok").send();
    // Brackets nested past the form's depth limit, and JSON nested past serde_json's.
    let deep = format!("/checkouts/filter?created{}=1", "[a]".repeat(40));
    let (status, found) = violations_of(get(deep).await.unwrap()).await;
    assert_eq!(status, 400);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].0.starts_with("query.created[a][a]") && found[0].1 == "nests deeper than 32 levels", "{found:?}");
    let nested = format!("/checkouts/report?bounds={}{}", "[".repeat(2000), "]".repeat(2000));
    let (status, found) = violations_of(get(nested).await.unwrap()).await;
    assert_eq!(status, 400);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "query.bounds");
    assert!(found[0].1.starts_with("is not valid JSON: recursion limit exceeded"), "{found:?}");
    // A number too large for the integer variant is the string one.
    let response = get("/checkouts/by/99999999999999999999999".to_owned()).await.unwrap();
    let body: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    assert_eq!(body["key"], json!("99999999999999999999999"));
}

#[tokio::test]
async fn an_empty_value_allowed_is_the_parameter_left_out_unless_it_is_text() {
    let base = start().await;
    let http = styles_client::http_client_builder().build().unwrap();
    let get = |query: &'static str| http.get(format!("{base}/checkouts/count?{query}")).bearer_auth("tok").send();
    let read = |response: apigen_runtime::codegen::client::reqwest::Response| async move {
        (response.status().as_u16(), serde_json::from_slice::<Value>(&response.bytes().await.unwrap()).unwrap())
    };
    // Empty: the integer takes its default, the enumeration is absent, the text is "".
    let (status, body) = read(get("limit=&mode=&q=").await.unwrap()).await;
    assert_eq!((status, body), (200, json!({"limit": 20, "q": ""})));
    let (status, body) = read(get("limit=5&mode=subscription&q=a").await.unwrap()).await;
    assert_eq!((status, body), (200, json!({"limit": 5, "mode": "subscription", "q": "a"})));
    // A value given is still checked, and an empty one beside it is no second value.
    let (status, found) = violations_of(get("limit=x&mode=card").await.unwrap()).await;
    let expected: Vec<(String, String)> = vec![
        ("query.limit".into(), "expected an integer, found \"x\"".into()),
        ("query.mode".into(), "\"card\" is not one of: payment, subscription".into()),
    ];
    assert_eq!((status, found), (400, expected));
    let (status, found) = violations_of(get("limit=&limit=101").await.unwrap()).await;
    assert_eq!((status, found), (400, vec![("query.limit".into(), "must be at most 100 (found 101)".into())]));
    // The client sends what it is given.
    let client = client(&base);
    let count = client.checkouts().count().send().await.unwrap();
    assert_eq!(count, Count { limit: 20, mode: None, q: None });
}

#[tokio::test]
async fn path_lists_travel_comma_separated_and_each_item_is_checked() {
    let base = start().await;
    let client = client(&base);
    let pick = client.checkouts().pick([1, 22], [Mode::Payment, Mode::Subscription]);
    assert_eq!(pick.clone().call().unwrap().path, "/checkouts/picked/1,22/payment,subscription");
    let picked = pick.send().await.unwrap();
    assert_eq!(picked, Picked { ids: vec![1, 22], modes: vec![Mode::Payment, Mode::Subscription] });

    let http = styles_client::http_client_builder().build().unwrap();
    let get = |path: &'static str| http.get(format!("{base}/checkouts/picked/{path}")).bearer_auth("tok").send();
    let (status, found) = violations_of(get("1,2,3,4/payment").await.unwrap()).await;
    assert_eq!((status, found), (400, vec![("path.ids".into(), "must hold at most 3 items (found 4)".into())]));
    let (status, found) = violations_of(get("1,x/card").await.unwrap()).await;
    let expected: Vec<(String, String)> = vec![
        ("path.ids".into(), "expected an integer, found \"x\"".into()),
        ("path.modes/0".into(), "\"card\" is not one of: payment, subscription".into()),
    ];
    assert_eq!((status, found), (400, expected));
    // `item: { minimum: 1 }`: each item checked, named by its index.
    let (status, found) = violations_of(get("1,0,-2/payment").await.unwrap()).await;
    let expected: Vec<(String, String)> = vec![
        ("path.ids/1".into(), "must be at least 1 (found 0)".into()),
        ("path.ids/2".into(), "must be at least 1 (found -2)".into()),
    ];
    assert_eq!((status, found), (400, expected));
}
