#include "server/http/gateway.h"

#include <arpa/inet.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "server/base/byte_size.h"
#include "server/http/certificate_reloader.h"
#include "server/http/embedded_files.h"
#include "server/http/forwarded_call.h"
#include "server/http/http_status.h"
#include "server/http/request_deadline.h"
#include "server/http/routes.h"
#include "spdlog/spdlog.h"
#include "wire/request_id.h"

namespace nqueens::server::http {

// What a request asks for: a call, or a path the gateway answers itself
// (with GET or HEAD, needing no token). Outside the anonymous namespace
// because Gateway::Exchange, which has external linkage, holds one.
enum class Kind { kCall, kPreflight, kHealth, kDocument, kPage };

namespace {

constexpr char kJson[] = "application/json";
// The request headers a page of --http-cors-origin may send.
constexpr char kCorsRequestHeaders[] =
    "content-type, authorization, x-request-id, grpc-timeout, nqueens-max-response-bytes";
// How long a browser may keep a preflight's yes.
constexpr char kCorsMaxAgeSeconds[] = "600";
// What a request holds before its answer (routes.h estimates that): the
// body, its parse and the call's request, as a multiple of the body, and a
// fixed part (also what one message of JSON lines takes).
constexpr uint64_t kHeldPerBodyByte = 4;
constexpr uint64_t kRequestBytes = uint64_t{64} << 10;

// "ipv4:10.0.0.7:51234" or "ipv6:[::1]:51234", as gRPC names its peers.
std::string ClientAddress(MHD_Connection* connection) {
  const MHD_ConnectionInfo* info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info == nullptr || info->client_addr == nullptr) return "unknown";
  char host[INET6_ADDRSTRLEN] = {};
  if (info->client_addr->sa_family == AF_INET6) {
    const auto* address = reinterpret_cast<const sockaddr_in6*>(info->client_addr);
    inet_ntop(AF_INET6, &address->sin6_addr, host, sizeof(host));
    return absl::StrCat("ipv6:[", host, "]:", ntohs(address->sin6_port));
  }
  const auto* address = reinterpret_cast<const sockaddr_in*>(info->client_addr);
  inet_ntop(AF_INET, &address->sin_addr, host, sizeof(host));
  return absl::StrCat("ipv4:", host, ":", ntohs(address->sin_port));
}

std::string Header(MHD_Connection* connection, const char* name) {
  const char* value = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
  return value == nullptr ? "" : value;
}

std::string QueryParameter(MHD_Connection* connection, const char* name) {
  const char* value = MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, name);
  return value == nullptr ? "" : value;
}

// The HTTP client has closed its end (or the connection broke). A client
// that sends its next request early has only made the socket readable.
bool ClientGone(int socket) {
  pollfd watched = {socket, POLLRDHUP, 0};
  return poll(&watched, 1, 0) > 0 && (watched.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

// With --tls-client-ca: the client presented a certificate that one of its
// CAs signed. (The TLS library asks for one but lets the handshake finish
// without it.)
bool ClientCertificateTrusted(MHD_Connection* connection) {
  const MHD_ConnectionInfo* info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
  if (info == nullptr || info->tls_session == nullptr) return false;
  unsigned int verdict = 0;
  return gnutls_certificate_verify_peers2(static_cast<gnutls_session_t>(info->tls_session),
                                          &verdict) == GNUTLS_E_SUCCESS &&
         verdict == 0;
}

// The headers of every answer but the files built in (the request's own
// come in Exchange::Queue).
void AddAnswerHeaders(MHD_Response* response, const char* content_type) {
  MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
  MHD_add_response_header(response, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
}

// An answer of `body`, which it copies.
MHD_Response* BodyResponse(const std::string& body, const char* content_type) {
  MHD_Response* response = MHD_create_response_from_buffer(
      body.size(), const_cast<char*>(body.data()), MHD_RESPMEM_MUST_COPY);
  AddAnswerHeaders(response, content_type);
  return response;
}

// One of the files built into the server (embedded_files.h).
MHD_Response* EmbeddedFile(const char* bytes, size_t size, const char* content_type) {
  MHD_Response* response =
      MHD_create_response_from_buffer(size, const_cast<char*>(bytes), MHD_RESPMEM_PERSISTENT);
  MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
  MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
  return response;
}

MHD_Response* PageResponse() {
  MHD_Response* response =
      EmbeddedFile(kPlaygroundPage, kPlaygroundPageBytes, "text/html; charset=utf-8");
  // The page loads nothing from elsewhere, and no other site may frame it.
  MHD_add_response_header(response, "Content-Security-Policy",
                          "default-src 'none'; script-src 'unsafe-inline'; style-src "
                          "'unsafe-inline'; img-src data:; connect-src 'self'; "
                          "frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  return response;
}

struct OwnPath {
  const char* path;
  Kind kind;
};
constexpr OwnPath kOwnPaths[] = {
    {"/healthz", Kind::kHealth}, {"/openapi.json", Kind::kDocument}, {"/", Kind::kPage}};

// "POST /v1/solve, ..., GET /healthz, ... and GET /", for the 404 message.
std::string RouteList() {
  std::vector<std::string> routes;
  for (const Route& route : Routes()) routes.push_back(absl::StrCat("POST ", route.path));
  for (const OwnPath& own : kOwnPaths) routes.push_back(absl::StrCat("GET ", own.path));
  const std::string last = routes.back();
  routes.pop_back();
  return absl::StrCat(absl::StrJoin(routes, ", "), " and ", last);
}

}  // namespace

// One request. Made at its first byte; the gateway reads its body into it,
// then answers; deleted when the connection is done with it (MHD's
// completion callback), which cancels a call still going.
class Gateway::Exchange {
 public:
  Exchange(Gateway& gateway, MHD_Connection* connection)
      : gateway_(gateway), connection_(connection) {
    absl::MutexLock lock(&gateway_.mutex_);
    ++gateway_.exchanges_;
  }
  ~Exchange() {
    call_.reset();  // cancels a call still going, and waits for its end
    absl::MutexLock lock(&gateway_.mutex_);
    --gateway_.exchanges_;
  }

  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  // The first call, with the headers only.
  MHD_Result Begin(const char* url, const char* method) {
    url_ = url;
    method_ = method;
    const bool get = method_ == MHD_HTTP_METHOD_GET;
    for (const OwnPath& own : kOwnPaths) {
      if (url_ != own.path) continue;
      kind_ = own.kind;
      if (!get && method_ != MHD_HTTP_METHOD_HEAD) return Refuse405("GET, HEAD");
      return MHD_YES;
    }
    if (absl::StartsWith(url_, "/v1/")) {
      // Made here, not by the service, so that every answer carries it,
      // those given before the call begins or after the gateway stopped
      // waiting.
      request_id_ = Header(connection_, "X-Request-Id");
      if (!wire::IsUsableRequestId(request_id_)) request_id_ = wire::NewRequestId();
    }
    route_ = FindRoute(url_);
    if (route_ == nullptr) {
      return Answered(Fail(grpc::StatusCode::NOT_FOUND,
                           absl::StrCat("no route ", url_, ": the routes are ", RouteList())));
    }
    if (method_ == MHD_HTTP_METHOD_OPTIONS && !gateway_.options_.cors_origin.empty()) {
      kind_ = Kind::kPreflight;
      return MHD_YES;
    }
    if (method_ != MHD_HTTP_METHOD_POST) return Refuse405("POST");
    // A page of another site may make a browser send a form or text/plain
    // here without asking first (no CORS preflight); it asks before JSON,
    // and this server never says yes.
    if (!absl::StartsWithIgnoreCase(Header(connection_, MHD_HTTP_HEADER_CONTENT_TYPE), kJson)) {
      return Answered(Fail(grpc::StatusCode::INVALID_ARGUMENT,
                           "send the body as JSON, with Content-Type: application/json "
                           "(curl --json does)",
                           MHD_HTTP_UNSUPPORTED_MEDIA_TYPE));
    }
    uint64_t announced = gateway_.options_.max_request_bytes;
    const std::string length = Header(connection_, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (!length.empty() && absl::SimpleAtoi(length, &announced) &&
        announced > gateway_.options_.max_request_bytes) {
      return TooLarge();
    }
    const uint64_t held = kHeldPerBodyByte * announced + kRequestBytes;
    return Hold(held) ? MHD_YES : Answered(NoRoomFor(held));
  }

  // A piece of the body.
  MHD_Result Take(const char* data, size_t size) {
    if (answered_) return MHD_YES;  // refused already: the rest is read and dropped
    const uint64_t limit = gateway_.options_.max_request_bytes;
    dropped_ += too_large_ ? size : 0;
    if (!too_large_ && body_.size() + size > limit) {
      // A body without a length: MHD answers only once it has read it all,
      // so the rest is dropped as it comes, up to as much again.
      too_large_ = true;
      std::string().swap(body_);
    }
    if (too_large_) return dropped_ <= limit ? MHD_YES : MHD_NO;
    body_.append(data, size);
    return MHD_YES;
  }

  // The whole request is in.
  MHD_Result Finish() {
    if (answered_) return MHD_YES;
    if (too_large_) return TooLarge();
    answered_ = true;
    // With --tls-client-ca, a client without a certificate of those CAs gets
    // nothing here, as the gRPC port's handshake refuses it.
    if (!gateway_.options_.tls.client_ca_file.empty() && !ClientCertificateTrusted(connection_)) {
      return Fail(grpc::StatusCode::UNAUTHENTICATED,
                  "this server wants a client certificate signed by one of its CAs "
                  "(--tls-client-ca)");
    }
    switch (kind_) {
      case Kind::kPreflight:
        return Preflight();
      case Kind::kPage:
        return Queue(MHD_HTTP_OK, PageResponse());
      case Kind::kDocument:
        return Queue(MHD_HTTP_OK, EmbeddedFile(kOpenApiDocument, kOpenApiDocumentBytes, kJson));
      case Kind::kHealth:
        return gateway_.serving_()
                   ? Reply(MHD_HTTP_OK, "{\"status\":\"SERVING\"}", kJson)
                   : Reply(MHD_HTTP_SERVICE_UNAVAILABLE, "{\"status\":\"NOT_SERVING\"}", kJson);
      case Kind::kCall:
        break;
    }
    return RunCall();
  }

  // MHD's reader of a JSON-lines answer: its lines as they come.
  static ssize_t ReadLines(void* exchange, uint64_t /*position*/, char* buffer, size_t size) {
    return static_cast<Exchange*>(exchange)->NextLines(buffer, size);
  }

 private:
  MHD_Result Answered(MHD_Result queued) {
    answered_ = true;
    return queued;
  }

  // Queues `response`, and lets it go, with what this request adds to
  // every answer: its request id (on the /v1/ routes), the CORS headers.
  MHD_Result Queue(int status, MHD_Response* response) {
    if (!request_id_.empty()) {
      MHD_add_response_header(response, "X-Request-Id", request_id_.c_str());
    }
    AddCorsHeaders(response);
    const MHD_Result queued =
        MHD_queue_response(connection_, static_cast<unsigned>(status), response);
    MHD_destroy_response(response);
    return queued;
  }

  // With --http-cors-origin, an answer to a page of that origin lets it read
  // the answer and its request id; an answer to any other origin says
  // nothing. Never Access-Control-Allow-Credentials: a page sends its token
  // in the Authorization header, which needs no cookies.
  void AddCorsHeaders(MHD_Response* response) const {
    const std::string& origin = gateway_.options_.cors_origin;
    if (origin.empty()) return;
    MHD_add_response_header(response, "Vary", "Origin");  // for caches: answers differ by it
    if (Header(connection_, "Origin") != origin) return;
    MHD_add_response_header(response, "Access-Control-Allow-Origin", origin.c_str());
    MHD_add_response_header(response, "Access-Control-Expose-Headers", "X-Request-Id");
  }

  // A browser's question before a page of another origin calls a route: yes
  // for --http-cors-origin's pages (with the headers they may send), no for
  // any other.
  MHD_Result Preflight() {
    const std::string& origin = gateway_.options_.cors_origin;
    if (Header(connection_, "Origin") != origin) {
      return Fail(grpc::StatusCode::PERMISSION_DENIED,
                  absl::StrCat("only pages of ", origin,
                               " may call this server from a browser (--http-cors-origin)"));
    }
    MHD_Response* response = MHD_create_response_from_buffer(0, nullptr, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(response, "Access-Control-Allow-Methods", "POST");
    MHD_add_response_header(response, "Access-Control-Allow-Headers", kCorsRequestHeaders);
    MHD_add_response_header(response, "Access-Control-Max-Age", kCorsMaxAgeSeconds);
    return Queue(MHD_HTTP_NO_CONTENT, response);
  }

  MHD_Result Reply(int status, const std::string& body, const char* content_type) {
    return Queue(status, BodyResponse(body, content_type));
  }

  // An error answer. One that no call gave (the call's is logged by the
  // service) is logged here.
  MHD_Result Fail(grpc::StatusCode code, absl::string_view message, int http_status = 0,
                  const std::string& allow = "") {
    if (http_status == 0) http_status = HttpStatusOf(code);
    if (call_ == nullptr) {
      if (gateway_.options_.count_refusal) gateway_.options_.count_refusal(http_status);
      spdlog::info("HTTP {} {} request_id={} peer={} refused: {} {} ({})",
                   absl::CHexEscape(method_), absl::CHexEscape(url_), request_id_,
                   ClientAddress(connection_), http_status, StatusName(code), std::string(message));
    }
    MHD_Response* response = BodyResponse(ErrorBody(code, message, request_id_), kJson);
    if (!allow.empty()) MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, allow.c_str());
    return Queue(http_status, response);
  }

  MHD_Result Refuse405(const char* allow) {
    return Answered(Fail(grpc::StatusCode::UNIMPLEMENTED,
                         absl::StrCat("this path takes ", allow, " only"),
                         MHD_HTTP_METHOD_NOT_ALLOWED, allow));
  }

  MHD_Result TooLarge() {
    return Answered(Fail(grpc::StatusCode::RESOURCE_EXHAUSTED,
                         absl::StrCat("the request body is larger than ",
                                      HumanBytes(gateway_.options_.max_request_bytes),
                                      ", this server's limit (--http-max-request-bytes)"),
                         MHD_HTTP_CONTENT_TOO_LARGE));
  }

  // Holds `bytes` more of the memory budget for the request: before its
  // body is read, what the body will take; once it is parsed, its answer.
  // False when the budget has no room.
  bool Hold(uint64_t bytes) {
    std::optional<MemoryBudget::Reservation> more = gateway_.budget_.Reserve(bytes);
    if (!more.has_value()) return false;
    if (memory_.has_value()) {
      memory_->Absorb(*std::move(more));
    } else {
      memory_ = std::move(more);
    }
    return true;
  }

  MHD_Result NoRoomFor(uint64_t bytes) {
    return Fail(grpc::StatusCode::RESOURCE_EXHAUSTED,
                absl::StrCat("this HTTP request needs ", HumanBytes(bytes),
                             " of the memory budget (", HumanBytes(gateway_.budget_.capacity()),
                             ", --memory-budget), which running calls hold; try again later"));
  }

  Forwarding ForwardingOf(absl::Duration timeout) const {
    Forwarding forwarding;
    forwarding.authorization = Header(connection_, MHD_HTTP_HEADER_AUTHORIZATION);
    forwarding.request_id = request_id_;
    forwarding.client_address = ClientAddress(connection_);
    if (timeout != absl::InfiniteDuration()) forwarding.deadline = absl::Now() + timeout;
    return forwarding;
  }

  MHD_Result RunCall() {
    const absl::StatusOr<absl::Duration> timeout =
        RequestTimeout(Header(connection_, "grpc-timeout"), QueryParameter(connection_, "timeout"));
    if (!timeout.ok()) {
      return Fail(grpc::StatusCode::INVALID_ARGUMENT, timeout.status().message());
    }
    absl::StatusOr<ParsedRequest> request = RequestFromJson(*route_, body_);
    if (!request.ok()) {
      return Fail(grpc::StatusCode::INVALID_ARGUMENT, request.status().message());
    }
    std::string().swap(body_);
    const bool lines = AnswersInLines(*route_, Header(connection_, MHD_HTTP_HEADER_ACCEPT));
    // A line of Count or Enumerate takes no more than the fixed part; a
    // chunk of CompleteStream does (routes.cc).
    const uint64_t answer_bytes =
        lines && route_->shape != AnswerShape::kMessages ? kRequestBytes : request->answer_bytes;
    if (!Hold(answer_bytes)) return NoRoomFor(answer_bytes);
    call_ = std::make_unique<ForwardedCall>(gateway_.stub_, route_->grpc_method,
                                            ForwardingOf(*timeout), request->bytes);
    return lines ? StreamLines() : Collect();
  }

  std::optional<grpc::ByteBuffer> NextAnswer() {
    const MHD_ConnectionInfo* info =
        MHD_get_connection_info(connection_, MHD_CONNECTION_INFO_CONNECTION_FD);
    const int socket = info != nullptr ? info->connect_fd : -1;
    return call_->Next([socket] { return socket >= 0 && ClientGone(socket); });
  }

  MHD_Result SendCallError() {
    const grpc::Status& status = call_->status();
    return Fail(status.error_code(), status.error_message());
  }

  MHD_Result SendAnswerError(const absl::Status& status) {
    call_->Cancel();
    return Fail(static_cast<grpc::StatusCode>(status.code()), status.message());
  }

  // The whole answer as one JSON document.
  MHD_Result Collect() {
    std::string answer;
    std::string boards;
    while (std::optional<grpc::ByteBuffer> message = NextAnswer()) {
      absl::StatusOr<std::string> json = route_->shape == AnswerShape::kBoards
                                             ? BoardLines(*message)
                                             : AnswerToJson(*route_, *message);
      if (!json.ok()) return SendAnswerError(json.status());
      if (route_->shape != AnswerShape::kBoards) {
        answer = *std::move(json);
        continue;
      }
      boards += *json;
      if (boards.size() > kMaxBoardsDocumentBytes) {
        return SendAnswerError(absl::ResourceExhaustedError(absl::StrCat(
            "the boards take more than ", HumanBytes(kMaxBoardsDocumentBytes),
            ", the most one JSON document holds; set \"limit\", or ask for JSON lines (Accept: ",
            kJsonLines, ")")));
      }
    }
    if (!call_->status().ok()) return SendCallError();
    if (route_->shape == AnswerShape::kBoards) answer = BoardsDocument(boards);
    return Reply(MHD_HTTP_OK, answer, kJson);
  }

  // {"boards":[...]} from one board per line.
  static std::string BoardsDocument(std::string lines) {
    if (!lines.empty()) lines.pop_back();
    for (char& c : lines) {
      if (c == '\n') c = ',';
    }
    return absl::StrCat("{\"boards\":[", lines, "]}");
  }

  // The answer as JSON lines (routes.h, AnswerLines), sent as they come:
  // the status is known from the first message (or from an early end); an
  // error after it becomes a last line {"error": {...}}.
  MHD_Result StreamLines() {
    std::optional<grpc::ByteBuffer> first = NextAnswer();
    if (!first.has_value()) {
      if (!call_->status().ok()) return SendCallError();
      return Reply(MHD_HTTP_OK, "", kJsonLines);
    }
    absl::StatusOr<std::string> lines = AnswerLines(*route_, *first);
    if (!lines.ok()) return SendAnswerError(lines.status());
    pending_ = *std::move(lines);
    MHD_Response* response =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 << 10, &Exchange::ReadLines, this,
                                          /*crfc=*/nullptr);
    AddAnswerHeaders(response, kJsonLines);
    return Queue(MHD_HTTP_OK, response);
  }

  ssize_t NextLines(char* buffer, size_t size) {
    while (sent_ == pending_.size()) {
      if (stream_ended_) return MHD_CONTENT_READER_END_OF_STREAM;
      sent_ = 0;
      pending_.clear();
      std::optional<grpc::ByteBuffer> message = NextAnswer();
      if (!message.has_value()) {
        stream_ended_ = true;
        const grpc::Status& status = call_->status();
        if (!status.ok()) {
          pending_ = absl::StrCat(
              "{\"error\":", ErrorBody(status.error_code(), status.error_message(), request_id_),
              "}\n");
        }
        continue;
      }
      absl::StatusOr<std::string> lines = AnswerLines(*route_, *message);
      if (!lines.ok()) return MHD_CONTENT_READER_END_WITH_ERROR;
      pending_ = *std::move(lines);
    }
    const size_t taken = std::min(size, pending_.size() - sent_);
    std::memcpy(buffer, pending_.data() + sent_, taken);
    sent_ += taken;
    return static_cast<ssize_t>(taken);
  }

  Gateway& gateway_;
  MHD_Connection* const connection_;
  std::string method_;  // "POST"
  std::string url_;     // "/v1/solve"
  Kind kind_ = Kind::kCall;
  const Route* route_ = nullptr;
  std::string request_id_;  // for the /v1/ routes
  bool answered_ = false;
  std::string body_;
  bool too_large_ = false;  // the body went past the limit; dropped_ bytes since
  uint64_t dropped_ = 0;
  std::optional<MemoryBudget::Reservation> memory_;
  std::unique_ptr<ForwardedCall> call_;
  // JSON lines not yet sent, from sent_ on.
  std::string pending_;
  size_t sent_ = 0;
  bool stream_ended_ = false;
};

namespace {

MHD_Result OnRequest(void* gateway, MHD_Connection* connection, const char* url, const char* method,
                     const char* /*version*/, const char* upload_data, size_t* upload_data_size,
                     void** request) {
  auto* exchange = static_cast<Gateway::Exchange*>(*request);
  if (exchange == nullptr) {
    exchange = new Gateway::Exchange(*static_cast<Gateway*>(gateway), connection);
    *request = exchange;
    return exchange->Begin(url, method);
  }
  if (*upload_data_size != 0) {
    const size_t size = std::exchange(*upload_data_size, 0);
    return exchange->Take(upload_data, size);
  }
  return exchange->Finish();
}

void OnCompleted(void* /*gateway*/, MHD_Connection* /*connection*/, void** request,
                 MHD_RequestTerminationCode /*why*/) {
  delete static_cast<Gateway::Exchange*>(*request);
  *request = nullptr;
}

void LogLibraryMessage(void* /*unused*/, const char* format, va_list arguments) {
  char message[512];
  std::vsnprintf(message, sizeof(message), format, arguments);
  std::string line = message;
  while (!line.empty() && line.back() == '\n') line.pop_back();
  spdlog::debug("http: {}", line);
}

// The first address `listen` (HOST:PORT, checked) resolves to, for binding.
absl::StatusOr<sockaddr_storage> BindAddress(const std::string& listen) {
  const size_t colon = listen.rfind(':');
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  const std::string port = listen.substr(colon + 1);
  addrinfo hints = {};
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0 || found == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("--http-listen ", listen, ": cannot resolve ", host));
  }
  sockaddr_storage address = {};
  std::memcpy(&address, found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);
  return address;
}

}  // namespace

absl::Status CheckCorsOrigin(absl::string_view origin) {
  if (origin.empty()) return absl::OkStatus();
  const size_t scheme_end = origin.find("://");
  const absl::string_view scheme = origin.substr(0, scheme_end);
  const absl::string_view host =
      scheme_end == absl::string_view::npos ? "" : origin.substr(scheme_end + 3);
  if ((scheme == "http" || scheme == "https") && !host.empty() &&
      host.find_first_of("/?#*@ \t") == absl::string_view::npos &&
      absl::AsciiStrToLower(origin) == origin) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "--http-cors-origin \"", origin,
      "\" is no origin: expected http or https, a host and maybe a port, in lower case, as a "
      "browser sends them (e.g. https://app.example.com), without a path or *"));
}

Gateway::Gateway(const GatewayOptions& options, std::shared_ptr<grpc::Channel> channel,
                 MemoryBudget& budget, std::function<bool()> serving)
    : options_(options),
      channel_(std::move(channel)),
      stub_(channel_),
      budget_(budget),
      serving_(std::move(serving)) {}

absl::StatusOr<std::unique_ptr<Gateway>> Gateway::Start(const GatewayOptions& options,
                                                        std::shared_ptr<grpc::Channel> channel,
                                                        MemoryBudget& budget,
                                                        std::function<bool()> serving) {
  absl::StatusOr<sockaddr_storage> address = BindAddress(options.listen);
  if (!address.ok()) return address.status();
  std::unique_ptr<Gateway> gateway(
      new Gateway(options, std::move(channel), budget, std::move(serving)));
  unsigned flags =
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG;
  if (address->ss_family == AF_INET6) flags |= MHD_USE_IPv6;
  std::vector<MHD_OptionItem> items = {
      {MHD_OPTION_EXTERNAL_LOGGER, reinterpret_cast<intptr_t>(&LogLibraryMessage), nullptr},
      {MHD_OPTION_SOCK_ADDR, 0, &*address},
      {MHD_OPTION_CONNECTION_LIMIT, kMaxConnections, nullptr},
      {MHD_OPTION_CONNECTION_TIMEOUT, kIdleSeconds, nullptr},
      {MHD_OPTION_NOTIFY_COMPLETED, reinterpret_cast<intptr_t>(&OnCompleted), nullptr},
  };
  if (options.tls.enabled()) {
    absl::StatusOr<std::unique_ptr<CertificateReloader>> certificates =
        CertificateReloader::Start(options.tls);
    if (!certificates.ok()) return certificates.status();
    gateway->certificates_ = *std::move(certificates);
    flags |= MHD_USE_TLS;
    for (const MHD_OptionItem& item : gateway->certificates_->DaemonOptions()) {
      items.push_back(item);
    }
  }
  items.push_back({MHD_OPTION_END, 0, nullptr});
  gateway->daemon_ = MHD_start_daemon(flags, 0, nullptr, nullptr, &OnRequest, gateway.get(),
                                      MHD_OPTION_ARRAY, items.data(), MHD_OPTION_END);
  if (gateway->daemon_ == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("cannot serve HTTP on ", options.listen, " (--http-listen)"));
  }
  const MHD_DaemonInfo* bound = MHD_get_daemon_info(gateway->daemon_, MHD_DAEMON_INFO_BIND_PORT);
  gateway->port_ = bound != nullptr ? bound->port : 0;
  return gateway;
}

Gateway::~Gateway() {
  if (daemon_ == nullptr) return;
  const MHD_socket listening = MHD_quiesce_daemon(daemon_);
  if (listening != MHD_INVALID_SOCKET) close(listening);
  {
    absl::MutexLock lock(&mutex_);
    const auto answered = [this]()
                              ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) { return exchanges_ == 0; };
    mutex_.AwaitWithTimeout(absl::Condition(&answered), kStopAtMost);
  }
  MHD_stop_daemon(daemon_);
}

}  // namespace nqueens::server::http
