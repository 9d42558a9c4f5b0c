#include "server/rpc/reflection_v1.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/message.h>

#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "grpc/health/v1/health.pb.h"

namespace nqueens::server {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::DescriptorPool;
using google::protobuf::FileDescriptor;
using grpc::reflection::v1::ServerReflectionRequest;
using grpc::reflection::v1::ServerReflectionResponse;

const DescriptorPool& Pool() { return *DescriptorPool::generated_pool(); }

void SetError(grpc::StatusCode code, const std::string& message,
              ServerReflectionResponse& response) {
  response.mutable_error_response()->set_error_code(static_cast<int>(code));
  response.mutable_error_response()->set_error_message(message);
}

// `file`, then those of its imports (and theirs) that this stream has not
// sent yet, as the protocol asks: a client builds its pool from them.
void AddFile(const FileDescriptor& file, std::set<std::string>& sent,
             ServerReflectionResponse& response) {
  if (!sent.insert(file.name()).second) return;
  google::protobuf::FileDescriptorProto proto;
  file.CopyTo(&proto);
  proto.SerializeToString(response.mutable_file_descriptor_response()->add_file_descriptor_proto());
  for (int i = 0; i < file.dependency_count(); ++i) AddFile(*file.dependency(i), sent, response);
}

void AnswerFile(const FileDescriptor* file, const std::string& what, std::set<std::string>& sent,
                ServerReflectionResponse& response) {
  if (file == nullptr) {
    SetError(grpc::StatusCode::NOT_FOUND, absl::StrCat(what, " not found"), response);
    return;
  }
  // A file this stream sent already is sent again when asked for by name.
  sent.erase(file->name());
  AddFile(*file, sent, response);
}

void AnswerExtensionNumbers(const std::string& type_name, ServerReflectionResponse& response) {
  const Descriptor* type = Pool().FindMessageTypeByName(type_name);
  if (type == nullptr) {
    SetError(grpc::StatusCode::NOT_FOUND, absl::StrCat("type ", type_name, " not found"), response);
    return;
  }
  std::vector<const google::protobuf::FieldDescriptor*> extensions;
  Pool().FindAllExtensions(type, &extensions);
  auto* numbers = response.mutable_all_extension_numbers_response();
  numbers->set_base_type_name(type_name);
  for (const auto* extension : extensions) numbers->add_extension_number(extension->number());
}

void AnswerExtension(const grpc::reflection::v1::ExtensionRequest& request,
                     std::set<std::string>& sent, ServerReflectionResponse& response) {
  const Descriptor* type = Pool().FindMessageTypeByName(request.containing_type());
  const google::protobuf::FieldDescriptor* extension =
      type == nullptr ? nullptr : Pool().FindExtensionByNumber(type, request.extension_number());
  AnswerFile(
      extension == nullptr ? nullptr : extension->file(),
      absl::StrCat("extension ", request.extension_number(), " of ", request.containing_type()),
      sent, response);
}

}  // namespace

ReflectionV1::ReflectionV1(std::vector<std::string> services) : services_(std::move(services)) {
  // Nothing else uses the health messages' C++ (gRPC serves health itself):
  // without this, the linker drops them and their file from the pool.
  google::protobuf::LinkMessageReflection<grpc::health::v1::HealthCheckResponse>();
}

grpc::Status ReflectionV1::ServerReflectionInfo(
    grpc::ServerContext* /*context*/,
    grpc::ServerReaderWriter<ServerReflectionResponse, ServerReflectionRequest>* stream) {
  std::set<std::string> sent;  // files this stream has sent
  ServerReflectionRequest request;
  while (stream->Read(&request)) {
    ServerReflectionResponse response;
    response.set_valid_host(request.host());
    *response.mutable_original_request() = request;
    switch (request.message_request_case()) {
      case ServerReflectionRequest::kListServices:
        for (const std::string& name : services_) {
          response.mutable_list_services_response()->add_service()->set_name(name);
        }
        break;
      case ServerReflectionRequest::kFileByFilename:
        AnswerFile(Pool().FindFileByName(request.file_by_filename()),
                   absl::StrCat("file ", request.file_by_filename()), sent, response);
        break;
      case ServerReflectionRequest::kFileContainingSymbol:
        AnswerFile(Pool().FindFileContainingSymbol(request.file_containing_symbol()),
                   absl::StrCat("symbol ", request.file_containing_symbol()), sent, response);
        break;
      case ServerReflectionRequest::kFileContainingExtension:
        AnswerExtension(request.file_containing_extension(), sent, response);
        break;
      case ServerReflectionRequest::kAllExtensionNumbersOfType:
        AnswerExtensionNumbers(request.all_extension_numbers_of_type(), response);
        break;
      case ServerReflectionRequest::MESSAGE_REQUEST_NOT_SET:
        SetError(grpc::StatusCode::INVALID_ARGUMENT, "the request asks for nothing", response);
        break;
    }
    if (!stream->Write(response)) break;
  }
  return grpc::Status::OK;
}

}  // namespace nqueens::server
